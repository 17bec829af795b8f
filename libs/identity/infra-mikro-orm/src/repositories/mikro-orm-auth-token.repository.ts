import { TransactionPropagation } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthTokenRepository, type AuthTokenRecord, type Role, type UserId } from '@rc/identity-domain';

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
    // The user's row lock serialises the logins of one user: the trim, a statement of its own after
    // the lock is held, then sees every token committed before it, so concurrent logins cannot
    // leave more than `keepNewest` behind. Two statements, in the caller's transaction when there
    // is one (a login's unit of work), else in one of their own.
    await this.em.transactional(
      async (em) => {
        const inserted = await em.execute<unknown[]>(
          `WITH owner AS (SELECT id FROM users WHERE id = ? FOR NO KEY UPDATE)
           INSERT INTO auth_tokens (digest, user_id, created_at, expires_at) SELECT ?, id, ?, ? FROM owner RETURNING 1`,
          [token.userId, token.digest, token.createdAt, token.expiresAt],
        );
        if (inserted.length !== 1) throw new Error(`no user ${token.userId} to issue a token to`);
        await em.execute(
          `DELETE FROM auth_tokens WHERE user_id = ? AND (expires_at <= ? OR digest IN (
             SELECT digest FROM auth_tokens WHERE user_id = ? ORDER BY created_at DESC, digest OFFSET ?))`,
          [token.userId, token.createdAt, token.userId, keepNewest],
        );
      },
      { propagation: TransactionPropagation.REQUIRED },
    );
  }

  async findOwner(digest: string, now: Date): Promise<{ userId: UserId; role: Role } | null> {
    const [row] = await this.em.execute<{ id: number; role: Role }[]>(
      `SELECT u.id, u.role FROM auth_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.digest = ? AND t.expires_at > ? AND u.status = 'active'`,
      [digest, now],
    );
    return row ? { userId: row.id as UserId, role: row.role } : null;
  }

  async remove(digest: string): Promise<void> {
    await this.em.execute('DELETE FROM auth_tokens WHERE digest = ?', [digest]);
  }

  async removeAllOf(userId: UserId): Promise<void> {
    await this.em.execute('DELETE FROM auth_tokens WHERE user_id = ?', [userId]);
  }

}
