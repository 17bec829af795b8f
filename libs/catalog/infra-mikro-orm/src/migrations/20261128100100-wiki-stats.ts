import { Migration } from '@mikro-orm/migrations';

/**
 * A page's view count, in a narrow row of its own (`wiki_page_stats`): added to in batches by the
 * API's view counters (never one write per read), apart from the wide page rows and their search
 * vectors. A page without a row has not been viewed.
 */
export class WikiStats extends Migration {
  override name = '20261128100100-wiki-stats';

  up(): void {
    this.addSql(`CREATE TABLE wiki_page_stats (
      wiki_id integer PRIMARY KEY REFERENCES wiki_pages (id) ON DELETE CASCADE,
      views bigint NOT NULL DEFAULT 0
    )`);
  }
}
