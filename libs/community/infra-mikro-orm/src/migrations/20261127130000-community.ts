import { Migration } from '@mikro-orm/migrations';

/**
 * The community context's tables: comments (threads one level deep, soft-deleted) and stories.
 * Users, guides, steps, wiki pages and images are referred to by id only (no foreign keys across
 * contexts); a comment's `guide_id` is the guide whose visibility it follows, resolved when posted.
 */
export class CommunityInitial extends Migration {
  override name = '20261127130000-community';

  up(): void {
    this.addSql(`
      CREATE SEQUENCE comments_id_seq AS integer;
      CREATE TABLE comments (
        id integer PRIMARY KEY,
        context varchar(8) NOT NULL CHECK (context IN ('guide', 'step', 'wiki', 'story')),
        context_id integer NOT NULL,
        guide_id integer NULL,
        parent_id integer NULL REFERENCES comments (id),
        author_id integer NOT NULL,
        text text NOT NULL,
        langid varchar(2) NULL,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NULL,
        deleted_at timestamptz NULL,
        CONSTRAINT comments_guide_of_guide_comments CHECK (context NOT IN ('guide', 'step') OR guide_id IS NOT NULL)
      );
      ALTER SEQUENCE comments_id_seq OWNED BY comments.id;
      -- A target's threads (guide bodies, a step's comments).
      CREATE INDEX comments_target_idx ON comments (context, context_id, id);
      -- A comment's replies.
      CREATE INDEX comments_parent_idx ON comments (parent_id, id) WHERE parent_id IS NOT NULL;
      -- /comments?modifiedSince
      CREATE INDEX comments_modified_idx ON comments (modified_at, id) WHERE deleted_at IS NULL;

      CREATE SEQUENCE stories_id_seq AS integer;
      CREATE TABLE stories (
        id integer PRIMARY KEY,
        author_id integer NOT NULL,
        langid varchar(2) NOT NULL,
        status varchar(8) NOT NULL CHECK (status IN ('open', 'deleted')),
        title varchar(255) NOT NULL,
        intro text NOT NULL,
        body text NOT NULL,
        conclusion text NOT NULL,
        image_ids integer[] NOT NULL,
        guide_ids integer[] NOT NULL,
        products text[] NOT NULL,
        difficulty varchar(16) NULL,
        time_taken integer NULL,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL
      );
      ALTER SEQUENCE stories_id_seq OWNED BY stories.id;
      -- A user's latest story (the one-per-minute rule).
      CREATE INDEX stories_author_idx ON stories (author_id, id);
      CREATE INDEX stories_guides_idx ON stories USING gin (guide_ids);
      CREATE INDEX stories_products_idx ON stories USING gin (products);
    `);
  }
}
