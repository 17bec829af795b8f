import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthTokenRepository, type AuthTokenRecord, type Role, type UserId } from '@rc/identity-domain';

export class MikroOrmAuthTokenRepository extends AuthTokenRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(token: AuthTokenRecord, keepNewest?: number): Promise<void> {
    const insert = (em: EntityManager) =>
      em.execute('INSERT INTO auth_tokens (digest, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [token.digest, token.userId, token.createdAt, token.expiresAt]);
    if (keepNewest === undefined) {
      await insert(this.em);
      return;
    }
    // The user's row lock serialises the logins of one user: each trim then sees every token
    // committed before it, so concurrent logins cannot leave more than `keepNewest` behind.
    await this.em.transactional(async (em) => {
      await em.execute('SELECT 1 FROM users WHERE id = ? FOR NO KEY UPDATE', [token.userId]);
      await insert(em);
      await em.execute(
        `DELETE FROM auth_tokens WHERE user_id = ? AND (expires_at <= ? OR digest IN (
           SELECT digest FROM auth_tokens WHERE user_id = ? ORDER BY created_at DESC, digest OFFSET ?))`,
        [token.userId, token.createdAt, token.userId, keepNewest],
      );
    });
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
