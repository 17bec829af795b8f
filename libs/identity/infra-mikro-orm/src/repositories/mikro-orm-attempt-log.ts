import type { EntityManager } from '@mikro-orm/postgresql';
import { AttemptLog, type AttemptKey, type AttemptKind } from '@rc/identity-domain';

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
    await this.pruneNowAndThen(at);
    return row!.id;
  }

  /** Keeps the table small: a cheap, indexed clean-up of long-expired rows now and then. */
  private async pruneNowAndThen(at: Date): Promise<void> {
    if (Math.random() < 0.05) {
      await this.em.execute('DELETE FROM auth_attempts WHERE at < ?', [new Date(at.getTime() - MikroOrmAttemptLog.RETENTION_MS)]);
    }
  }

  /** One multi-row INSERT, committed on its own before any count is read. */
  override async recordAll(keys: readonly AttemptKey[], at: Date): Promise<string[]> {
    if (!keys.length) return [];
    const rows = await this.em.execute<{ id: string }[]>(
      `INSERT INTO auth_attempts (kind, key, at) VALUES ${keys.map(() => '(?, ?, ?)').join(', ')} RETURNING id::text AS id`,
      keys.flatMap(({ kind, key }) => [kind, key, at]),
    );
    await this.pruneNowAndThen(at);
    // A multi-row INSERT … VALUES inserts, and returns, its rows in order.
    return rows.map((row) => row.id);
  }

  /** Every count in one statement: one index range per kind and key. */
  override async countAllSince(keys: readonly AttemptKey[], since: Date): Promise<{ count: number; oldest: Date | null }[]> {
    if (!keys.length) return [];
    const rows = await this.em.execute<{ count: number; oldest: Date | null }[]>(
      `SELECT c.count, c.oldest
         FROM (VALUES ${keys.map(() => '(?::int, ?::text, ?::text)').join(', ')}) AS l (i, kind, key)
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS count, min(a.at) AS oldest FROM auth_attempts a WHERE a.kind = l.kind AND a.key = l.key AND a.at > ?
         ) c
        ORDER BY l.i`,
      [...keys.flatMap(({ kind, key }, i) => [i, kind, key]), since],
    );
    return rows.map((row) => ({ count: row.count, oldest: row.oldest ? new Date(row.oldest) : null }));
  }

  override async removeAndClear(ids: readonly string[], clearing: readonly AttemptKey[]): Promise<void> {
    const conditions = [
      ...(ids.length ? [`id IN (${ids.map(() => '?').join(', ')})`] : []),
      ...clearing.map(() => '(kind = ? AND key = ?)'),
    ];
    if (!conditions.length) return;
    await this.em.execute(`DELETE FROM auth_attempts WHERE ${conditions.join(' OR ')}`, [...ids, ...clearing.flatMap(({ kind, key }) => [kind, key])]);
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.em.execute(`DELETE FROM auth_attempts WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]);
  }

  async clear(kind: AttemptKind, key: string): Promise<void> {
    await this.em.execute('DELETE FROM auth_attempts WHERE kind = ? AND key = ?', [kind, key]);
  }
}
