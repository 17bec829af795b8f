import { Migration } from '@mikro-orm/migrations';
import { contentStampSetupSql, contentStampTriggerSql } from '@rc/shared-infra-mikro-orm';

/** Teams and their members (user objects show team ids) count in the content stamp (see ContentStampReader): cached lists and pages that show them are built again after a change. */
export class TeamsContentStamp extends Migration {
  override name = '20261129100500-teams-content-stamp';

  up(): void {
    for (const sql of contentStampSetupSql()) this.addSql(sql);
    this.addSql(contentStampTriggerSql('teams'));
    this.addSql(contentStampTriggerSql('team_members'));
  }
}
