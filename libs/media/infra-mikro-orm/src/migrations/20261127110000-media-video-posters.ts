import { Migration } from '@mikro-orm/migrations';

/**
 * Videos record where their poster and metadata stand (made by a background job): `processing`
 * until it ran, `ready`, `failed`, or `unavailable` where the deployment has no video decoder.
 * The sweep finds the videos still waiting through a partial index.
 */
export class MediaVideoPosters extends Migration {
  override name = '20261127110000-media-video-posters';

  up(): void {
    this.addSql(`
      ALTER TABLE media_videos ADD COLUMN poster_status varchar(12) NOT NULL DEFAULT 'processing'
        CHECK (poster_status IN ('processing', 'ready', 'failed', 'unavailable'));
      CREATE INDEX media_videos_poster_pending_idx ON media_videos (created_at) WHERE poster_status = 'processing' AND deleted_at IS NULL;
    `);
  }

  override down(): void {
    this.addSql(`
      DROP INDEX media_videos_poster_pending_idx;
      ALTER TABLE media_videos DROP COLUMN poster_status;
    `);
  }
}
