import { Migration } from '@mikro-orm/migrations';

/**
 * The fields a page keeps for compatibility with the original's writes (page_title,
 * repairability_score, source_revisionid, suppliers, documents, maintenance_schedule,
 * table_of_contents): one jsonb object, kept in every revision's snapshot like the rest. Existing
 * pages have none of them. The USER and TEAM namespaces join the four others.
 */
export class CatalogDetails extends Migration {
  override name = '20261126140000-catalog-details';

  up(): void {
    this.addSql(`ALTER TABLE wiki_pages ADD COLUMN details jsonb NOT NULL DEFAULT '{}'`);
    this.addSql(`ALTER TABLE wiki_pages DROP CONSTRAINT wiki_pages_namespace_check`);
    this.addSql(`ALTER TABLE wiki_pages ADD CONSTRAINT wiki_pages_namespace_check CHECK (namespace IN ('CATEGORY', 'WIKI', 'INFO', 'ITEM', 'USER', 'TEAM'))`);
  }
}
