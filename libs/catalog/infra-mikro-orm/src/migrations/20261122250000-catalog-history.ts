import { Migration } from '@mikro-orm/migrations';

/** Revisions (a snapshot of each) and tags of wiki pages. */
export class CatalogHistory extends Migration {
  override name = '20261122250000-catalog-history';

  up(): void {
    this.addSql(`
      CREATE SEQUENCE wiki_revision_seq AS integer;
      SELECT setval('wiki_revision_seq', GREATEST(1, (SELECT coalesce(max(revisionid), 1) FROM wiki_pages)));
      CREATE TABLE wiki_revisions (
        wiki_id integer NOT NULL REFERENCES wiki_pages (id) ON DELETE CASCADE,
        revisionid integer NOT NULL,
        snapshot jsonb NOT NULL,
        editor_id integer NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (wiki_id, revisionid)
      );
      CREATE TABLE wiki_tags (
        wiki_id integer NOT NULL REFERENCES wiki_pages (id) ON DELETE CASCADE,
        tag varchar(32) NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (wiki_id, tag)
      );
      CREATE INDEX wiki_pages_listing_idx ON wiki_pages (namespace, title) WHERE deleted_at IS NULL;
    `);
  }
}
