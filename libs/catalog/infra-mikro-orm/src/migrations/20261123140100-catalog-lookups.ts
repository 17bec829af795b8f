import { Migration } from '@mikro-orm/migrations';

/**
 * Lookups the hot reads need: the version of the category tree (count, max and sum of the live
 * CATEGORY pages' revision ids, read by an index-only scan) and a deleted page by title (the
 * unique index covers live titles only).
 */
export class CatalogLookups extends Migration {
  override name = '20261123140100-catalog-lookups';

  up(): void {
    this.addSql(`
      CREATE INDEX wiki_pages_category_revision_idx ON wiki_pages (revisionid) WHERE namespace = 'CATEGORY' AND deleted_at IS NULL;
      CREATE INDEX wiki_pages_deleted_title_idx ON wiki_pages (namespace, title, id) WHERE deleted_at IS NOT NULL;
    `);
  }
}
