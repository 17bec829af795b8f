import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { PreparedStatement, queryPrepared } from './prepared-statements.js';
import { currentReadScope, formatLsn, inReadScope, parseLsn, ReplicaRoutingDriver, type Lsn, type ReadScope, type ReplicaSet } from './read-replicas.js';

// The content stamp: a number that grows with every committed transaction that changed content a
// list or a page shows (guides, steps, wiki pages, users, images, …), read in one cheap statement.
// A body built after reading the stamp shows at least everything the stamp counts (statements
// read committed data), so a body kept with the stamp it was built after is current for as long as
// the stamp reads the same, on any instance: caches of lists and pages check it on every read
// instead of listening for changes.
//
// Each such transaction adds one row to `content_changes` (its transaction id, inserted once by a
// statement trigger on each watched table: no row is shared between writers, so writers never wait
// on one another for it), and the stamp is their count plus `content_stamp_base.n`. Pruning moves
// counted rows into the base in one transaction, which leaves the stamp unchanged: see
// `pruneContentChanges`.
// The count cannot stay the same across a commit: a snapshot that sees a transaction sees every
// transaction an earlier snapshot saw (PostgreSQL's snapshots are ordered by what they see), and
// each transaction adds a row nobody else removes before it is counted into the base.

/** The trigger function that counts a transaction's change of a watched table (see `contentStampTriggerSql`). */
export const CONTENT_STAMP_FUNCTION = 'content_changed';

/**
 * The stamp's tables and function, created when missing: every context's migration that adds
 * triggers runs these first, so each context's migrations stand alone (its tests apply only them)
 * and the first to run creates what the others then find.
 */
export function contentStampSetupSql(): string[] {
  return [
    'CREATE TABLE IF NOT EXISTS content_stamp_base (id smallint PRIMARY KEY CHECK (id = 1), n bigint NOT NULL)',
    'INSERT INTO content_stamp_base (id, n) VALUES (1, 0) ON CONFLICT (id) DO NOTHING',
    'CREATE TABLE IF NOT EXISTS content_changes (txid bigint PRIMARY KEY)',
    `CREATE OR REPLACE FUNCTION ${CONTENT_STAMP_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
      begin
        insert into content_changes (txid) values (txid_current()) on conflict do nothing;
        return null;
      end; $$`,
  ];
}

/**
 * The DDL of the statement trigger that counts a change of `table` in the content stamp (once per
 * transaction, whatever it changed); `columns`: only updates that set one of these count.
 */
export function contentStampTriggerSql(table: string, columns: readonly string[] = []): string {
  const update = columns.length ? `UPDATE OF ${columns.join(', ')}` : 'UPDATE';
  return `CREATE TRIGGER ${table}_content_stamp AFTER INSERT OR ${update} OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${CONTENT_STAMP_FUNCTION}()`;
}

/** The statement reading the stamp (a decimal string). */
export const CONTENT_STAMP_SQL = 'SELECT ((SELECT n FROM content_stamp_base WHERE id = 1) + (SELECT count(*) FROM content_changes))::text AS stamp';

/**
 * Moves up to `limit` counted changes into the base, in one statement (one transaction): the
 * stamp reads the same before and after. Instances may prune at once: a row another pruner
 * deleted first is not deleted, nor counted, twice.
 */
export const CONTENT_STAMP_PRUNE_SQL = `WITH gone AS (
    DELETE FROM content_changes WHERE txid IN (SELECT txid FROM content_changes ORDER BY txid LIMIT $1) RETURNING 1
  )
  UPDATE content_stamp_base SET n = n + (SELECT count(*) FROM gone) WHERE id = 1 AND (SELECT count(*) FROM gone) > 0
  RETURNING (SELECT count(*) FROM gone)::int AS pruned`;

/** Read before every kept list or page is served: planned once per connection. */
const STAMP = new PreparedStatement(CONTENT_STAMP_SQL);
/**
 * With replicas, the stamp and the server's WAL position in one statement: the position is read
 * after the statement's snapshot was taken, so it is at or past everything the stamp counts (on the
 * primary its current position, on a replica the position it has replayed).
 */
const STAMP_AT_PRIMARY = new PreparedStatement(`SELECT (${CONTENT_STAMP_SQL.slice('SELECT '.length, -' AS stamp'.length)})::text AS stamp, pg_current_wal_lsn()::text AS lsn`);
const STAMP_AT_REPLICA = new PreparedStatement(`SELECT (${CONTENT_STAMP_SQL.slice('SELECT '.length, -' AS stamp'.length)})::text AS stamp, pg_last_wal_replay_lsn()::text AS lsn`);

/**
 * One read of a value at a time, shared by every caller that asked before it started: a caller
 * never gets a read that may have started before it asked. A caller that asks while a read is
 * under way waits for the next one, which starts as soon as that read ends and serves everyone
 * who asked meanwhile. So under load a stream of requests costs one statement per round trip
 * instead of one each, and every answer is as fresh as a read of its own would have been: what
 * committed before a request arrived is seen by the read that request gets.
 */
export class SharedRead<T> {
  private running = false;
  /** The callers waiting for the next read (it starts when the running one ends). */
  private next: { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } | null = null;
  /** Reads started (for the tests and the metrics). */
  reads = 0;

  constructor(private readonly read: () => Promise<T>) {}

  current(): Promise<T> {
    if (!this.running) return this.start();
    if (!this.next) {
      let resolve!: (value: T) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
      this.next = { promise, resolve, reject };
    }
    return this.next.promise;
  }

  private start(): Promise<T> {
    this.running = true;
    this.reads++;
    let read: Promise<T>;
    try {
      read = this.read();
    } catch (error) {
      read = Promise.reject(error);
    }
    const ended = () => {
      this.running = false;
      const waiting = this.next;
      if (!waiting) return;
      this.next = null;
      this.start().then(waiting.resolve, waiting.reject);
    };
    read.then(ended, ended);
    return read;
  }
}

/** The stamp as read on one server, with that server's WAL position (with replicas). */
export interface StampAt {
  readonly stamp: string;
  /** The server it was read on: a replica's index, `null` for the primary. */
  readonly server: number | null;
  /** The server's WAL position read after the stamp's snapshot (`null` without replicas). */
  readonly lsn: Lsn | null;
}

/** Each server's shared read of the stamp (the primary's, each replica's), one set per ORM driver. */
interface ServerStamps {
  readonly primary: SharedRead<StampAt>;
  readonly replicas: readonly SharedRead<StampAt>[];
  readonly replicaSet: ReplicaSet | null;
}

const serverStamps = new WeakMap<object, ServerStamps>();

function serverStampsOf(em: EntityManager): ServerStamps {
  const driver = em.getDriver();
  let stamps = serverStamps.get(driver);
  if (stamps) return stamps;
  // Its own fork: a shared read never runs inside the transaction of whichever caller starts it.
  const outside = em.fork();
  const replicaSet = driver instanceof ReplicaRoutingDriver && driver.replicaSet.size > 0 ? driver.replicaSet : null;
  const read = async (server: number | null): Promise<StampAt> => {
    const scope: ReadScope = { replica: server, fellBack: false, wrote: false };
    const statement = replicaSet === null ? STAMP : server === null ? STAMP_AT_PRIMARY : STAMP_AT_REPLICA;
    const [row] = await inReadScope(scope, () => queryPrepared<{ stamp: string; lsn?: string | null }>(outside, statement));
    // A replica that could not answer: the primary did (the scope moved there), with no position.
    if (scope.replica !== server) return { stamp: row!.stamp, server: null, lsn: null };
    return { stamp: row!.stamp, server, lsn: row!.lsn ? parseLsn(row!.lsn) : null };
  };
  stamps = {
    primary: new SharedRead(() => read(null)),
    replicas: (replicaSet?.replicas ?? []).map((_, index) => new SharedRead(() => read(index))),
    replicaSet,
  };
  serverStamps.set(driver, stamps);
  return stamps;
}

/**
 * Reads the content stamp on the server the request's read scope reads (the primary outside a
 * scope): a {@link SharedRead} per server, outside any transaction (concurrent requests share one
 * statement, never one that started before they asked). A replica that cannot answer moves the
 * scope to the primary, whose stamp is answered (the request's later reads go there too).
 */
export class ContentStampReader {
  private readonly stamps: ServerStamps;

  constructor(private readonly em: EntityManager) {
    this.stamps = serverStampsOf(em);
  }

  async current(): Promise<string> {
    const scope = currentReadScope();
    const server = scope?.replica ?? null;
    if (server === null) return (await this.stamps.primary.current()).stamp;
    if (this.em.getTransactionContext()) return (await queryPrepared<{ stamp: string }>(this.em, STAMP))[0]!.stamp;
    const at = await this.stamps.replicas[server]!.current();
    if (at.server !== server && scope!.replica === server) Object.assign(scope!, { replica: null, fellBack: true });
    return at.stamp;
  }

  /** The server the stamp is read on for the current read scope (a replica's index, `null`: the primary). */
  server(): number | null {
    return currentReadScope()?.replica ?? null;
  }

  /** Statements read on the primary so far, shared by the readers of this ORM (for the tests). */
  get primaryReads(): number {
    return this.stamps.primary.reads;
  }
}

/**
 * The content stamp read for a request ahead of its route (see RequestStampReader): on the server
 * its reads would go to (`server`: a replica's index, `null` for the primary).
 */
export interface RequestStamp {
  readonly stamp: string;
  readonly server: number | null;
  /** The headers an answer kept for this stamp carries when served for the request; `null`: none may be. */
  readonly headers: readonly (readonly [string, string])[] | null;
}

/**
 * The content stamp for an anonymous request, read ahead of its route on the server its reads
 * would go to, as ReadRoutingInterceptor would route them: without replicas the primary; with
 * replicas, one that has replayed the consistency token the request sent (`tokenHeader`), else the
 * primary. A kept answer built for that stamp is what the route would answer there, and it is sent
 * with the token of that server's position, read in the same statement as the stamp (so never
 * older than what the client sent back). Reads are shared per server ({@link SharedRead}).
 */
export class RequestStampReader {
  private readonly stamps: ServerStamps;
  private readonly header: string;

  constructor(em: EntityManager, private readonly tokenHeader: string) {
    this.stamps = serverStampsOf(em);
    this.header = tokenHeader.toLowerCase();
  }

  async read(req: { readonly headers: Readonly<Record<string, string | string[] | undefined>> }): Promise<RequestStamp> {
    const { replicaSet } = this.stamps;
    if (replicaSet === null) return { stamp: (await this.stamps.primary.current()).stamp, server: null, headers: [] };
    const sent = req.headers[this.header];
    const echoed = typeof sent === 'string' && sent ? parseLsn(sent) : null;
    const replica = await replicaSet.pick(echoed);
    const at = await (replica === null ? this.stamps.primary : this.stamps.replicas[replica]!).current();
    if (at.lsn === null) return { stamp: at.stamp, server: at.server, headers: null };
    const lsn = at.server !== null && echoed !== null && echoed > at.lsn ? echoed : at.lsn;
    return { stamp: at.stamp, server: at.server, headers: [[this.tokenHeader, formatLsn(lsn)]] };
  }
}

/**
 * Prunes counted changes (see CONTENT_STAMP_PRUNE_SQL) on a connection of the primary; answers how
 * many went into the base.
 */
export async function pruneContentChanges(db: Pick<pg.Pool, 'query'>, limit = 10_000): Promise<number> {
  const { rows } = await db.query<{ pruned: number }>(CONTENT_STAMP_PRUNE_SQL, [limit]);
  return rows[0]?.pruned ?? 0;
}
