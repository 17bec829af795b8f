import type { EntityManager } from '@mikro-orm/postgresql';
import { AttemptLog, type AttemptKey, type AttemptKind } from '@rc/identity-domain';
import { onPrimary, PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';

/**
 * One prepared statement per text (a text depends only on how many keys or ids it names: a login
 * always names three), so each connection plans the throttle's statements once.
 */
const statements = new Map<string, PreparedStatement>();
function prepared(sql: string): PreparedStatement {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = new PreparedStatement(sql)));
  return statement;
}

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
    const sql = `INSERT INTO auth_attempts (kind, key, at) VALUES ${keys.map(() => '(?::varchar, ?::text, ?::timestamptz)').join(', ')} RETURNING id::text AS id`;
    const rows = await this.run<{ id: string }>(sql, keys.flatMap(({ kind, key }) => [kind, key, at]));
    await this.pruneNowAndThen(at);
    // A multi-row INSERT … VALUES inserts, and returns, its rows in order.
    return rows.map((row) => row.id);
  }

  /** Every count in one statement: one index range per kind and key. */
  override async countAllSince(keys: readonly AttemptKey[], since: Date): Promise<{ count: number; oldest: Date | null }[]> {
    if (!keys.length) return [];
    const rows = await this.run<{ count: number; oldest: Date | null }>(
      `SELECT c.count, c.oldest
         FROM (VALUES ${keys.map(() => '(?::int, ?::text, ?::text)').join(', ')}) AS l (i, kind, key)
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS count, min(a.at) AS oldest FROM auth_attempts a WHERE a.kind = l.kind AND a.key = l.key AND a.at > ?::timestamptz
         ) c
        ORDER BY l.i`,
      [...keys.flatMap(({ kind, key }, i) => [i, kind, key]), since],
    );
    return rows.map((row) => ({ count: row.count, oldest: row.oldest ? new Date(row.oldest) : null }));
  }

  override async removeAndClear(ids: readonly string[], clearing: readonly AttemptKey[]): Promise<void> {
    const conditions = [
      ...(ids.length ? [`id IN (${ids.map(() => '?::bigint').join(', ')})`] : []),
      ...clearing.map(() => '(kind = ?::varchar AND key = ?::text)'),
    ];
    if (!conditions.length) return;
    await this.run(`DELETE FROM auth_attempts WHERE ${conditions.join(' OR ')}`, [...ids, ...clearing.flatMap(({ kind, key }) => [kind, key])]);
  }

  /** A statement of the log, prepared, on the primary (the counts must see the attempts just recorded there). */
  private run<T extends object>(sql: string, values: readonly unknown[]): Promise<T[]> {
    return onPrimary(() => queryPrepared<T>(this.em, prepared(sql), values));
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.run(`DELETE FROM auth_attempts WHERE id IN (${ids.map(() => '?::bigint').join(', ')})`, [...ids]);
  }

  async clear(kind: AttemptKind, key: string): Promise<void> {
    await this.em.execute('DELETE FROM auth_attempts WHERE kind = ? AND key = ?', [kind, key]);
  }
}
