import type { EntityManager } from '@mikro-orm/postgresql';
import { AttemptLog, type AttemptKind } from '@rc/identity-domain';

/**
 * Attempts live in PostgreSQL, so every API instance counts the same attempts. Each statement
 * commits on its own (the throttle never runs inside a unit of work), so a recorded attempt is
 * visible to every concurrent count at once.
 */
export class MikroOrmAttemptLog extends AttemptLog {
  /** Attempts older than this are deleted as new ones are recorded. */
  private static readonly RETENTION_MS = 24 * 3600 * 1000;

  constructor(private readonly em: EntityManager) {
    super();
  }

  async countSince(kind: AttemptKind, key: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const [row] = await this.em.execute<{ count: number; oldest: Date | null }[]>(
      'SELECT count(*)::int AS count, min(at) AS oldest FROM auth_attempts WHERE kind = ? AND key = ? AND at > ?',
      [kind, key, since],
    );
    return { count: row!.count, oldest: row!.oldest ? new Date(row!.oldest) : null };
  }

  async record(kind: AttemptKind, key: string, at: Date): Promise<string> {
    const [row] = await this.em.execute<{ id: string }[]>('INSERT INTO auth_attempts (kind, key, at) VALUES (?, ?, ?) RETURNING id::text AS id', [kind, key, at]);
    // Keep the table small: a cheap, indexed clean-up of long-expired rows now and then.
    if (Math.random() < 0.05) {
      await this.em.execute('DELETE FROM auth_attempts WHERE at < ?', [new Date(at.getTime() - MikroOrmAttemptLog.RETENTION_MS)]);
    }
    return row!.id;
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.em.execute(`DELETE FROM auth_attempts WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]);
  }

  async clear(kind: AttemptKind, key: string): Promise<void> {
    await this.em.execute('DELETE FROM auth_attempts WHERE kind = ? AND key = ?', [kind, key]);
  }
}
