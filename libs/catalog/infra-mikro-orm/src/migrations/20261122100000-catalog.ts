import { Migration } from '@mikro-orm/migrations';

/** The catalog context's wiki pages (categories are the CATEGORY namespace, a tree by parent_id). */
export class CatalogInitial extends Migration {
  override name = '20261122100000-catalog';

  up(): void {
    this.addSql(`
      CREATE SEQUENCE wiki_pages_id_seq AS integer;
      CREATE TABLE wiki_pages (
        id integer PRIMARY KEY,
        namespace varchar(16) NOT NULL CHECK (namespace IN ('CATEGORY', 'WIKI', 'INFO', 'ITEM')),
        title varchar(255) NOT NULL,
        display_title varchar(255) NOT NULL,
        parent_id integer NULL REFERENCES wiki_pages (id),
        description text NOT NULL,
        contents text NOT NULL,
        image_id integer NULL,
        flags text[] NOT NULL,
        info jsonb NOT NULL,
        revisionid integer NOT NULL,
        author_id integer NULL,
        langid varchar(2) NOT NULL,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL,
        deleted_at timestamptz NULL
      );
      ALTER SEQUENCE wiki_pages_id_seq OWNED BY wiki_pages.id;
      CREATE UNIQUE INDEX wiki_pages_title_key ON wiki_pages (namespace, title) WHERE deleted_at IS NULL;
      CREATE INDEX wiki_pages_parent_idx ON wiki_pages (parent_id);
    `);
  }
}
