import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthTokenRepository, type AuthTokenRecord, type Role, type UserId } from '@rc/identity-domain';

export class MikroOrmAuthTokenRepository extends AuthTokenRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(token: AuthTokenRecord): Promise<void> {
    await this.em.execute('INSERT INTO auth_tokens (digest, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [
      token.digest,
      token.userId,
      token.createdAt,
      token.expiresAt,
    ]);
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

  async trim(userId: UserId, keep: number, now: Date): Promise<void> {
    await this.em.execute(
      `DELETE FROM auth_tokens WHERE user_id = ? AND (expires_at <= ? OR digest IN (
         SELECT digest FROM auth_tokens WHERE user_id = ? ORDER BY created_at DESC, digest OFFSET ?))`,
      [userId, now, userId, keep],
    );
  }
}
