import { createHash } from 'node:crypto';
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { ReplicaRoutingDriver } from './read-replicas.js';

/** A plan a prepared statement kept no longer fits the table ("cached plan must not change result type"). */
const STALE_PLAN = '0A000';

/**
 * A read the service runs often (a page's parts, a body's version, the content stamp): sent as a
 * named prepared statement, so each pooled connection plans it once and PostgreSQL may keep a
 * generic plan, where `em.execute` sends the values inlined in the text and every run is planned
 * afresh (for the heavier reads, planning took as long as running them). `sql` is written as for
 * `em.execute`, a `?` for each value in order; the statement is named after a hash of its text, so
 * one text is one statement whoever runs it. Its text must not vary with the values (one statement
 * per distinct text stays prepared on every connection).
 */
export class PreparedStatement {
  /** The text PostgreSQL prepares: `$1`, `$2`… for the `?`s. */
  readonly text: string;
  private readonly base: string;
  /** Bumped when a kept plan went stale (a migration changed a table it reads): the next run prepares anew. */
  private generation = 0;

  constructor(readonly sql: string) {
    let n = 0;
    this.text = sql.replace(/\?/g, () => `$${++n}`);
    this.base = `rc_${createHash('sha1').update(this.text).digest('hex').slice(0, 24)}`;
  }

  get name(): string {
    return this.generation ? `${this.base}_${this.generation}` : this.base;
  }

  /** Prepares under a new name (the old one's kept plan is stale on some connections). */
  renew(): void {
    this.generation++;
  }
}

/**
 * Runs `statement` with `values` through `em`: as a prepared statement on a pooled connection of the
 * server `em` reads from (the primary, or the replica of the request's read scope: see
 * ReplicaRoutingDriver), logged as MikroORM logs its own statements (`onQuery` counts them), with
 * rows parsed by the same type parsers. Inside a transaction it runs as `em.execute` does, on the
 * transaction's connection (its reads see its own writes).
 */
export async function queryPrepared<T extends object>(em: EntityManager, statement: PreparedStatement, values: readonly unknown[] = []): Promise<T[]> {
  if (em.getTransactionContext()) {
    return em.execute<T[]>(statement.sql, [...values]);
  }
  const driver = em.getDriver();
  const run = async (pool: pg.Pool): Promise<T[]> => {
    try {
      return (await pool.query<T>({ name: statement.name, text: statement.text, values: [...values] })).rows;
    } catch (error) {
      if ((error as { code?: unknown }).code !== STALE_PLAN) throw error;
      statement.renew();
      return (await pool.query<T>({ name: statement.name, text: statement.text, values: [...values] })).rows;
    }
  };
  const started = Date.now();
  try {
    const rows = driver instanceof ReplicaRoutingDriver ? await driver.onReadServer(run) : await run(await (em.getConnection() as PostgreSqlConnection).getNativeClient());
    em.config.getLogger().logQuery({ query: statement.sql, params: [...values], took: Date.now() - started, results: rows.length, level: 'info' });
    return rows;
  } catch (error) {
    em.config.getLogger().logQuery({ query: statement.sql, params: [...values], took: Date.now() - started, level: 'error' });
    // As MikroORM reports its own statements' failures (a lost server is a ConnectionException…).
    throw error instanceof Error ? driver.convertException(error) : error;
  }
}

/**
 * Integer ids as one `int[]` value (`?::int[]`), the same whether the statement runs prepared or
 * through `em.execute` (which would expand a JS array into a list of values): the planner counts
 * them, where an array built by a subquery is assumed to hold a hundred.
 */
export function intArrayLiteral(values: readonly number[]): string {
  const ids = [...new Set(values)];
  if (!ids.every(Number.isSafeInteger)) throw new TypeError('intArrayLiteral takes integers');
  return `{${ids.join(',')}}`;
}
