import { Migration } from '@mikro-orm/migrations';

/**
 * The original's last guide write fields, kept with every revision: the media documents attached
 * (`documents`), the featured one (`featured_documentid`) and the intro video (`objectid`).
 */
export class GuideDocuments extends Migration {
  override name = '20261128100200-guide-documents';

  up(): void {
    this.addSql(`ALTER TABLE guides ADD COLUMN document_ids integer[] NOT NULL DEFAULT '{}',
      ADD COLUMN featured_documentid integer, ADD COLUMN intro_objectid integer`);
  }
}
