import { Migration } from '@mikro-orm/migrations';

/** The guides context's tables. Other contexts are referred to by id only (no foreign keys across contexts). */
export class GuidesInitial extends Migration {
  override name = '20261122200000-guides';

  up(): void {
    this.addSql(`
      CREATE SEQUENCE guides_id_seq AS integer;
      CREATE SEQUENCE guide_steps_id_seq AS integer;
      -- One sequence for the revisions of guides and steps: ids unique across both, increasing.
      CREATE SEQUENCE guide_revision_seq AS integer;

      CREATE TABLE guides (
        id integer PRIMARY KEY,
        revisionid integer NOT NULL,
        author_id integer NOT NULL,
        contributor_ids integer[] NOT NULL,
        title varchar(255) NOT NULL,
        category varchar(255) NOT NULL,
        subject varchar(255) NOT NULL,
        type varchar(16) NOT NULL,
        difficulty varchar(16) NULL,
        summary text NOT NULL,
        introduction text NOT NULL,
        conclusion text NOT NULL,
        time_required_min integer NOT NULL,
        time_required_max integer NOT NULL,
        image_id integer NULL,
        parts jsonb NOT NULL,
        tools jsonb NOT NULL,
        prerequisites integer[] NOT NULL,
        flags text[] NOT NULL,
        is_public boolean NOT NULL,
        locale varchar(2) NOT NULL,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL,
        published_at timestamptz NULL,
        deleted_at timestamptz NULL
      );
      ALTER SEQUENCE guides_id_seq OWNED BY guides.id;
      CREATE INDEX guides_listed_idx ON guides (id) WHERE is_public AND deleted_at IS NULL;
      CREATE INDEX guides_author_idx ON guides (author_id, id) WHERE deleted_at IS NULL;
      CREATE INDEX guides_modified_idx ON guides (modified_at) WHERE is_public AND deleted_at IS NULL;
      CREATE INDEX guides_prerequisites_idx ON guides USING gin (prerequisites);
      CREATE INDEX guides_flags_idx ON guides USING gin (flags);

      CREATE TABLE guide_steps (
        id integer PRIMARY KEY,
        guide_id integer NOT NULL REFERENCES guides (id) ON DELETE CASCADE,
        orderby integer NOT NULL,
        revisionid integer NOT NULL,
        title varchar(255) NOT NULL,
        lines jsonb NOT NULL,
        media jsonb NOT NULL
      );
      ALTER SEQUENCE guide_steps_id_seq OWNED BY guide_steps.id;
      CREATE INDEX guide_steps_guide_idx ON guide_steps (guide_id, orderby);

      CREATE TABLE guide_revisions (
        guide_id integer NOT NULL REFERENCES guides (id) ON DELETE CASCADE,
        revisionid integer NOT NULL,
        snapshot jsonb NOT NULL,
        editor_id integer NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (guide_id, revisionid)
      );

      CREATE TABLE guide_marks (
        kind varchar(12) NOT NULL CHECK (kind IN ('favorite', 'completion')),
        user_id integer NOT NULL,
        guide_id integer NOT NULL REFERENCES guides (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (kind, user_id, guide_id)
      );
      CREATE INDEX guide_marks_user_idx ON guide_marks (kind, user_id, created_at DESC);
      CREATE INDEX guide_marks_guide_idx ON guide_marks (guide_id);

      CREATE TABLE guide_tags (
        guide_id integer NOT NULL REFERENCES guides (id) ON DELETE CASCADE,
        tag varchar(32) NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (guide_id, tag)
      );

      -- Events for other contexts, written in the transaction of the change that caused them.
      CREATE TABLE guide_events_outbox (
        id bigserial PRIMARY KEY,
        type varchar(32) NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        delivered_at timestamptz NULL
      );
      CREATE INDEX guide_events_outbox_pending_idx ON guide_events_outbox (id) WHERE delivered_at IS NULL;
    `);
  }
}
