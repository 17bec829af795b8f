import { Migration } from '@mikro-orm/migrations';

/**
 * The document a wiki page is found by, weighted: title and display title (A), description (B),
 * contents (C). The contents are markup: the parser drops its punctuation, and its few keywords
 * (`link`, `guide`, URLs) only weigh C.
 */
export const WIKI_SEARCH_VECTOR = `setweight(to_tsvector('english', coalesce(title, '') || ' ' || coalesce(display_title, '')), 'A')
  || setweight(to_tsvector('english', coalesce(description, '')), 'B')
  || setweight(to_tsvector('english', coalesce(contents, '')), 'C')`;

/** Full-text search over wiki pages: a generated, GIN-indexed `search_vector`. */
export class CatalogSearch extends Migration {
  override name = '20261122300100-catalog-search';

  up(): void {
    this.addSql(`ALTER TABLE wiki_pages ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${WIKI_SEARCH_VECTOR}) STORED`);
    this.addSql(`CREATE INDEX wiki_pages_search_idx ON wiki_pages USING gin (search_vector)`);
  }
}
