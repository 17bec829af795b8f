import type { EntityManager } from '@mikro-orm/postgresql';
import { PasswordResetRepository, type PasswordResetRecord, type UserId } from '@rc/identity-domain';

export class MikroOrmPasswordResetRepository extends PasswordResetRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(reset: PasswordResetRecord): Promise<void> {
    await this.em.execute('INSERT INTO password_resets (digest, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [
      reset.digest,
      reset.userId,
      reset.createdAt,
      reset.expiresAt,
    ]);
  }

  async consume(digest: string, now: Date): Promise<UserId | null> {
    // One conditional UPDATE: of two concurrent confirmations, only one sees the row unused.
    const [row] = await this.em.execute<{ user_id: number }[]>(
      'UPDATE password_resets SET used_at = ? WHERE digest = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id',
      [now, digest, now],
    );
    return row ? (row.user_id as UserId) : null;
  }

  async revokeAllOf(userId: UserId, now: Date): Promise<void> {
    await this.em.execute('UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, userId]);
  }
}
