import { Migration } from '@mikro-orm/migrations';
import { rowTriggerSql } from '@rc/shared-infra-mikro-orm';
import { TOTAL_STANDING_TRIGGER_BODY } from '../schemas/reputation.schemas.js';

/**
 * Announces on `user_standings` (with the user id) every committed change to what user objects
 * show of a user, so API instances can keep bodies that embed user objects without re-reading them.
 */
export class ReputationStandingNotify extends Migration {
  override name = '20261124100200-reputation-standing-notify';

  up(): void {
    // Named as the schema declares it.
    this.addSql(rowTriggerSql('reputation_totals', 'reputation_totals_standing_notify', ['INSERT', 'UPDATE', 'DELETE'], TOTAL_STANDING_TRIGGER_BODY));
  }
}
