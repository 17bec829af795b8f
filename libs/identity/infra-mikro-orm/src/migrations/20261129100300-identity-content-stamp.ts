import { Migration } from '@mikro-orm/migrations';
import { contentStampSetupSql, contentStampTriggerSql } from '@rc/shared-infra-mikro-orm';

/** Users as lists and pages show them (not their email or password hash) count in the content stamp (see ContentStampReader): cached lists and pages that show them are built again after a change. */
export class IdentityContentStamp extends Migration {
  override name = '20261129100300-identity-content-stamp';

  up(): void {
    for (const sql of contentStampSetupSql()) this.addSql(sql);
    this.addSql(contentStampTriggerSql('users', ['username', 'unique_username', 'role', 'status', 'joined_at', 'about', 'summary', 'location', 'langid', 'image_id']));
  }
}
