import { Migration } from '@mikro-orm/migrations';

/** GET /users: active accounts in id order, without reading disabled ones. */
export class UsersListing extends Migration {
  override name = '20261122400000-users-listing';

  up(): void {
    this.addSql(`CREATE INDEX users_active_id_idx ON users (id) WHERE status = 'active';`);
  }
}
