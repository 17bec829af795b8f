import { Migration } from '@mikro-orm/migrations';
import { rowTriggerSql } from '@rc/shared-infra-mikro-orm';
import { MEMBER_STANDING_TRIGGER_BODY } from '../schemas/teams.schemas.js';

/**
 * Announces on `user_standings` (with the user id) every committed change to what user objects
 * show of a user, so API instances can keep bodies that embed user objects without re-reading them.
 */
export class TeamsStandingNotify extends Migration {
  override name = '20261124100300-teams-standing-notify';

  up(): void {
    // Named as the schema declares it.
    this.addSql(rowTriggerSql('team_members', 'team_members_standing_notify', ['INSERT', 'UPDATE', 'DELETE'], MEMBER_STANDING_TRIGGER_BODY));
  }
}
