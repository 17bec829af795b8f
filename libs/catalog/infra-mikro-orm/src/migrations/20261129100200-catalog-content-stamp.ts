import { Migration } from '@mikro-orm/migrations';
import { contentStampSetupSql, contentStampTriggerSql } from '@rc/shared-infra-mikro-orm';

/** Wiki pages, their revisions (authors), tags and translations (not the view counts) count in the content stamp (see ContentStampReader): cached lists and pages that show them are built again after a change. */
export class CatalogContentStamp extends Migration {
  override name = '20261129100200-catalog-content-stamp';

  up(): void {
    for (const sql of contentStampSetupSql()) this.addSql(sql);
    this.addSql(contentStampTriggerSql('wiki_pages'));
    this.addSql(contentStampTriggerSql('wiki_revisions'));
    this.addSql(contentStampTriggerSql('wiki_tags'));
    this.addSql(contentStampTriggerSql('wiki_translations'));
  }
}
