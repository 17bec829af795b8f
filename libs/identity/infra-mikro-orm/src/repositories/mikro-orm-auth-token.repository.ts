import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthTokenRepository, type AuthTokenRecord, type Role, type UserId } from '@rc/identity-domain';
import { onPrimary, PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';

/** A login's token (see `add`) and every authenticated request's owner: prepared, planned once per connection. */
const ISSUE = new PreparedStatement('SELECT issue_auth_token(?::int, ?::varchar, ?::timestamptz, ?::timestamptz, ?::int) AS issued');
const OWNER = new PreparedStatement(
  `SELECT u.id, u.role FROM auth_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.digest = ? AND t.expires_at > ? AND u.status = 'active'`,
);

export class MikroOrmAuthTokenRepository extends AuthTokenRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(token: AuthTokenRecord, keepNewest?: number): Promise<void> {
    const values = [token.digest, token.userId, token.createdAt, token.expiresAt];
    if (keepNewest === undefined) {
      await this.em.execute('INSERT INTO auth_tokens (digest, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', values);
      return;
    }
    // One statement (see the `issue_auth_token` migration): the user's row lock serialises the
    // logins of one user, and the trim, run after the lock is held, sees every token committed
    // before it, so concurrent logins cannot leave more than `keepNewest` behind. In the caller's
    // transaction when there is one, else committed on its own.
    const [row] = await onPrimary(() =>
      queryPrepared<{ issued: boolean }>(this.em, ISSUE, [token.userId, token.digest, token.createdAt, token.expiresAt, keepNewest]),
    );
    if (!row?.issued) throw new Error(`no user ${token.userId} to issue a token to`);
  }

  async findOwner(digest: string, now: Date): Promise<{ userId: UserId; role: Role } | null> {
    const [row] = await queryPrepared<{ id: number; role: Role }>(this.em, OWNER, [digest, now]);
    return row ? { userId: row.id as UserId, role: row.role } : null;
  }

  async remove(digest: string): Promise<void> {
    await this.em.execute('DELETE FROM auth_tokens WHERE digest = ?', [digest]);
  }

  async removeAllOf(userId: UserId): Promise<void> {
    await this.em.execute('DELETE FROM auth_tokens WHERE user_id = ?', [userId]);
  }

}
