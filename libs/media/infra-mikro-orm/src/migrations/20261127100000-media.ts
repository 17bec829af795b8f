import { Migration } from '@mikro-orm/migrations';

/**
 * The media context's tables. Owners and content are referred to by id only (no foreign keys
 * across contexts). Upload counters live here too, so the rate limit and the quota hold across
 * every instance of the service.
 */
export class MediaInitial extends Migration {
  override name = '20261127100000-media';

  up(): void {
    this.addSql(`
      CREATE SEQUENCE media_images_id_seq AS integer;
      CREATE TABLE media_images (
        id integer PRIMARY KEY,
        guid varchar(16) NOT NULL CONSTRAINT media_images_guid_unique UNIQUE,
        owner_id integer NOT NULL,
        src_id integer NULL,
        filename varchar(255) NOT NULL,
        format varchar(8) NOT NULL,
        has_alpha boolean NOT NULL,
        byte_size bigint NOT NULL,
        source_width integer NOT NULL,
        source_height integer NOT NULL,
        orientation smallint NOT NULL,
        crop jsonb NULL,
        rotation smallint NOT NULL CHECK (rotation IN (0, 90, 180, 270)),
        width integer NOT NULL,
        height integer NOT NULL,
        ratio varchar(10) NOT NULL,
        version integer NOT NULL,
        exif jsonb NOT NULL,
        status varchar(10) NOT NULL CHECK (status IN ('processing', 'ready', 'failed')),
        created_at timestamptz NOT NULL,
        deleted_at timestamptz NULL,
        purged_at timestamptz NULL
      );
      ALTER SEQUENCE media_images_id_seq OWNED BY media_images.id;
      -- A library page: the owner's images newest first.
      CREATE INDEX media_images_library_idx ON media_images (owner_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
      -- The sweep for images whose rendition job was lost.
      CREATE INDEX media_images_processing_idx ON media_images (created_at) WHERE status = 'processing' AND purged_at IS NULL;

      -- The renditions of an image's current version (the sizes and the full-size original).
      CREATE TABLE media_image_sizes (
        image_id integer NOT NULL REFERENCES media_images (id) ON DELETE CASCADE,
        size varchar(10) NOT NULL,
        version integer NOT NULL,
        width integer NOT NULL,
        height integer NOT NULL,
        format varchar(8) NOT NULL,
        byte_size bigint NOT NULL,
        PRIMARY KEY (image_id, size)
      );

      CREATE SEQUENCE media_videos_id_seq AS integer;
      CREATE TABLE media_videos (
        id integer PRIMARY KEY,
        guid varchar(16) NOT NULL CONSTRAINT media_videos_guid_unique UNIQUE,
        owner_id integer NOT NULL,
        src_id integer NULL,
        filename varchar(255) NOT NULL,
        duration_ms integer NOT NULL,
        width integer NOT NULL,
        height integer NOT NULL,
        poster_image_id integer NULL REFERENCES media_images (id),
        encodings jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        deleted_at timestamptz NULL
      );
      ALTER SEQUENCE media_videos_id_seq OWNED BY media_videos.id;
      CREATE INDEX media_videos_owner_idx ON media_videos (owner_id, id) WHERE deleted_at IS NULL;

      CREATE SEQUENCE media_embeds_id_seq AS integer;
      CREATE TABLE media_embeds (
        id integer PRIMARY KEY,
        owner_id integer NOT NULL,
        url varchar(2048) NOT NULL,
        type varchar(8) NOT NULL,
        title varchar(255) NULL,
        provider_name varchar(255) NULL,
        provider_url varchar(2048) NULL,
        author_name varchar(255) NULL,
        author_url varchar(2048) NULL,
        width integer NULL,
        height integer NULL,
        thumbnail_url varchar(2048) NULL,
        created_at timestamptz NOT NULL,
        deleted_at timestamptz NULL
      );
      ALTER SEQUENCE media_embeds_id_seq OWNED BY media_embeds.id;
      CREATE INDEX media_embeds_owner_idx ON media_embeds (owner_id, id DESC) WHERE deleted_at IS NULL;

      CREATE SEQUENCE media_documents_id_seq AS integer;
      CREATE TABLE media_documents (
        id integer PRIMARY KEY,
        guid varchar(16) NOT NULL CONSTRAINT media_documents_guid_unique UNIQUE,
        owner_id integer NOT NULL,
        filename varchar(255) NOT NULL,
        title varchar(255) NOT NULL,
        byte_size bigint NOT NULL,
        pages integer NULL,
        thumbnail_image_id integer NULL REFERENCES media_images (id),
        created_at timestamptz NOT NULL,
        deleted_at timestamptz NULL
      );
      ALTER SEQUENCE media_documents_id_seq OWNED BY media_documents.id;

      -- Where content uses media, as the contexts owning the content record it: \`public\` content any
      -- viewer may see; otherwise only the listed viewers (authors, collaborators).
      CREATE TABLE media_usages (
        kind varchar(8) NOT NULL CHECK (kind IN ('image', 'video', 'embed', 'document')),
        media_id integer NOT NULL,
        context varchar(32) NOT NULL,
        ref varchar(64) NOT NULL,
        public boolean NOT NULL,
        viewer_ids integer[] NOT NULL,
        PRIMARY KEY (kind, media_id, context, ref)
      );
      CREATE INDEX media_usages_ref_idx ON media_usages (context, ref);

      -- Rotations users asked for, by the job id they chose (unique per user).
      CREATE TABLE media_rotate_jobs (
        user_id integer NOT NULL,
        job_id varchar(64) NOT NULL,
        image_id integer NOT NULL REFERENCES media_images (id),
        degrees smallint NOT NULL CHECK (degrees IN (90, 180, 270)),
        status varchar(10) NOT NULL CHECK (status IN ('processing', 'complete', 'failed')),
        applied_version integer NULL,
        created_at timestamptz NOT NULL,
        finished_at timestamptz NULL,
        PRIMARY KEY (user_id, job_id)
      );

      -- Per user: uploads in the current rate-limit window, and bytes stored (the quota's count).
      CREATE TABLE media_upload_allowances (
        user_id integer PRIMARY KEY,
        window_start timestamptz NOT NULL,
        uploads integer NOT NULL,
        stored_bytes bigint NOT NULL CHECK (stored_bytes >= 0)
      );
    `);
  }
}
