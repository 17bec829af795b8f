import { Migration } from '@mikro-orm/migrations';

/**
 * Related pages of a wiki page: a list of `{namespace, title}` kept on the page (and so in every
 * revision's snapshot). Pages are named by title, as links are: a page deleted and created again
 * under the same title is still the related page. Existing pages (and rows inserted without the
 * column) have none.
 */
export class CatalogRelated extends Migration {
  override name = '20261123130000-catalog-related';

  up(): void {
    this.addSql(`ALTER TABLE wiki_pages ADD COLUMN related jsonb NOT NULL DEFAULT '[]'`);
  }
}
