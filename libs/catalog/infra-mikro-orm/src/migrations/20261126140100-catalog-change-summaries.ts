import { Migration } from '@mikro-orm/migrations';

/** A page revision's summary of change, shown in the history. */
export class CatalogChangeSummaries extends Migration {
  override name = '20261126140100-catalog-change-summaries';

  up(): void {
    this.addSql('ALTER TABLE wiki_revisions ADD COLUMN summary_of_change varchar(255) NULL');
  }

  override down(): void {
    this.addSql('ALTER TABLE wiki_revisions DROP COLUMN summary_of_change');
  }
}
