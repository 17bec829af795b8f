import { Migration } from '@mikro-orm/migrations';

/**
 * The fields a page keeps for compatibility with the original's writes (page_title,
 * repairability_score, source_revisionid, suppliers, documents, maintenance_schedule,
 * table_of_contents): one jsonb object, kept in every revision's snapshot like the rest. Existing
 * pages have none of them.
 */
export class CatalogDetails extends Migration {
  override name = '20261126140000-catalog-details';

  up(): void {
    this.addSql(`ALTER TABLE wiki_pages ADD COLUMN details jsonb NOT NULL DEFAULT '{}'`);
  }
}
