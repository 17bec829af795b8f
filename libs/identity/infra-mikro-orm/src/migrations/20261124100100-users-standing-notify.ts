import { Migration } from '@mikro-orm/migrations';
import { rowTriggerSql } from '@rc/shared-infra-mikro-orm';
import { USER_STANDING_TRIGGER_BODY } from '../schemas/identity.schemas.js';

/**
 * Announces on `user_standings` (with the user id) every committed change to what user objects
 * show of a user, so API instances can keep bodies that embed user objects without re-reading them.
 */
export class UsersStandingNotify extends Migration {
  override name = '20261124100100-users-standing-notify';

  up(): void {
    // Named as the schema declares it.
    this.addSql(rowTriggerSql('users', 'users_standing_notify', ['UPDATE', 'DELETE'], USER_STANDING_TRIGGER_BODY));
  }
}
