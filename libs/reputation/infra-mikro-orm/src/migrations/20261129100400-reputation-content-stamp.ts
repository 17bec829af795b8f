import { Migration } from '@mikro-orm/migrations';
import { contentStampSetupSql, contentStampTriggerSql } from '@rc/shared-infra-mikro-orm';

/** Users' reputation and badges (user objects show them) count in the content stamp (see ContentStampReader): cached lists and pages that show them are built again after a change. */
export class ReputationContentStamp extends Migration {
  override name = '20261129100400-reputation-content-stamp';

  up(): void {
    for (const sql of contentStampSetupSql()) this.addSql(sql);
    this.addSql(contentStampTriggerSql('reputation_totals'));
    this.addSql(contentStampTriggerSql('badge_awards'));
  }
}
