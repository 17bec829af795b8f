import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConnectionType } from '@mikro-orm/core';
import { PostgreSqlDriver, type Configuration, type PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { isDatabaseUnavailable } from './database-unavailable.js';

/**
 * A position in PostgreSQL's write-ahead log (`pg_lsn`, written `16/B374D848`), as a number that
 * compares: every commit on the primary has one, and a replica has replayed everything up to its own.
 */
export type Lsn = bigint;

export function parseLsn(text: string): Lsn | null {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  return match ? (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`) : null;
}

export function formatLsn(lsn: Lsn): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/**
 * Where the statements of one unit of work (an HTTP request) go. Outside any scope, and in a scope
 * whose `replica` is `null`, everything goes to the primary: reading a replica is an explicit choice
 * made for a request, never a default.
 */
export interface ReadScope {
  /** The replica this scope's plain statements (outside transactions) go to; `null`: the primary. */
  replica: number | null;
  /** Set when a statement sent to the replica failed and was run on the primary instead. */
  fellBack: boolean;
  /** Set when a statement of a read-only scope turned out to write (it ran on the primary). */
  wrote: boolean;
}

const scopes = new AsyncLocalStorage<ReadScope>();

/** Runs `work` with its statements routed by `scope` (see {@link ReadScope}). */
export function inReadScope<T>(scope: ReadScope, work: () => T): T {
  return scopes.run(scope, work);
}

/**
 * Runs `work` on the primary whatever the caller's scope: for what process-wide caches load, which
 * are kept coherent with the primary (its notifications) and shared by every client.
 */
export function onPrimary<T>(work: () => T): T {
  const outer = scopes.getStore();
  return outer && outer.replica !== null ? scopes.run({ replica: null, fellBack: false, wrote: false }, work) : work();
}

/**
 * Moves the rest of the current request to the primary, for an answer that shows what was read
 * there (a shared cache kept coherent with the primary may be newer than the request's replica):
 * its consistency token is then the primary's position, so the client's next reads are never
 * older than what it was shown. Nothing happens outside a request's scope or on the primary.
 */
export function answerFromPrimary(): void {
  const scope = scopes.getStore();
  if (scope) scope.replica = null;
}

export function currentReadScope(): ReadScope | undefined {
  return scopes.getStore();
}

/**
 * SQLSTATEs a standby reports when replaying WAL conflicts with a read ("canceling statement due
 * to conflict with recovery"): the replica cannot answer this read now, the primary can.
 */
const RECOVERY_CONFLICTS = new Set(['40001', '40P01']);
/** A statement that writes, sent to a replica ("cannot execute UPDATE in a read-only transaction"). */
const READ_ONLY = '25006';

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether a replica's failure of a read says the replica is unusable now (as opposed to the
 * statement being wrong): what makes any database unavailable ({@link isDatabaseUnavailable}),
 * and a conflict with recovery.
 */
export function isReplicaUnavailable(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = codeOf(e);
    if (code && RECOVERY_CONFLICTS.has(code)) return true;
  }
  return false;
}

function isReadOnlyViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) if (codeOf(e) === READ_ONLY) return true;
  return false;
}

/** What is known of one replica: checked by the monitor, and at once when a read of it fails. */
export interface ReplicaState {
  readonly name: string;
  /** Reachable and replaying (in recovery) at the last check. */
  readonly up: boolean;
  /** The last position known replayed; only ever grows while the replica stays the same server. */
  readonly replayed: Lsn | null;
  /** How far the replay was behind the primary at the last check, in bytes of WAL. */
  readonly lagBytes: number | null;
  /** Why it is down (the last error), when it is. */
  readonly problem: string | null;
  readonly checkedAt: number;
}

interface MutableReplicaState {
  name: string;
  up: boolean;
  replayed: Lsn | null;
  lagBytes: number | null;
  problem: string | null;
  checkedAt: number;
  /** A check in flight (concurrent requests needing a fresh position share it). */
  checking: Promise<void> | null;
}

export interface ReplicaSetOptions {
  /** Milliseconds between background checks of each replica's position (and the primary's). */
  readonly checkEveryMs: number;
}

const DEFAULT_OPTIONS: ReplicaSetOptions = { checkEveryMs: 1000 };

/**
 * The primary and its read replicas, as the routing sees them: each replica's replayed position
 * (checked in the background, and at once when a request needs a newer one than known), whether it
 * is up, and the primary's own position for the tokens a response carries.
 */
export class ReplicaSet {
  private readonly states: MutableReplicaState[];
  private timer: NodeJS.Timeout | null = null;
  /** The primary's position at the last check (for the replicas' lag). */
  private primaryAt: Lsn | null = null;

  constructor(
    private readonly primary: PostgreSqlConnection,
    readonly replicas: readonly PostgreSqlConnection[],
    names: readonly string[],
  ) {
    this.states = replicas.map((_, i) => ({ name: names[i] ?? `replica-${i}`, up: true, replayed: null, lagBytes: null, problem: null, checkedAt: 0, checking: null }));
  }

  get size(): number {
    return this.replicas.length;
  }

  /** Starts the background checks (one tiny statement per replica and one on the primary each period). */
  start(options: Partial<ReplicaSetOptions> = {}): void {
    const { checkEveryMs } = { ...DEFAULT_OPTIONS, ...options };
    if (this.timer || this.replicas.length === 0) return;
    // An idle connection of a replica that stops or restarts errors on its pool: expected here
    // (reads fall back to the primary), and unhandled it would end the process.
    this.replicas.forEach((replica, index) => {
      void replica.getNativeClient().then(
        (pool) => pool.on('error', (error: Error) => this.markDown(index, error)),
        () => undefined,
      );
    });
    const tick = () => void this.checkAll().catch(() => undefined);
    tick();
    this.timer = setInterval(tick, checkEveryMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  state(): readonly ReplicaState[] {
    return this.states.map(({ checking: _checking, ...state }) => ({ ...state }));
  }

  /**
   * The replica a read needing at least `required` may use (`null`: the primary). A replica known
   * to have replayed that far is chosen at once; otherwise the candidates are asked their position
   * now (one statement), and the primary answers when none has replayed it yet, or none is up.
   */
  async pick(required: Lsn | null): Promise<number | null> {
    const usable = this.usable();
    if (usable.length === 0) return null;
    const caughtUp = usable.filter((i) => required === null || (this.states[i]!.replayed !== null && this.states[i]!.replayed! >= required));
    if (caughtUp.length) return caughtUp[Math.floor(Math.random() * caughtUp.length)]!;
    await Promise.all(usable.map((i) => this.check(i)));
    const now = usable.filter((i) => this.states[i]!.up && this.states[i]!.replayed !== null && this.states[i]!.replayed! >= required!);
    return now.length ? now[Math.floor(Math.random() * now.length)]! : null;
  }

  /** The position a replica is known to have replayed (a lower bound of what a read of it sees). */
  replayed(index: number): Lsn | null {
    return this.states[index]?.replayed ?? null;
  }

  /** Asks a replica its replayed position now (an upper bound of what reads of it finished before saw). */
  async replayedNow(index: number): Promise<Lsn | null> {
    await this.check(index);
    return this.states[index]!.up ? this.states[index]!.replayed : null;
  }

  /** The primary's current WAL position: at or past every commit a statement finished before it could see. */
  async primaryPosition(): Promise<Lsn> {
    const [row] = await this.primary.execute<{ lsn: string }[]>('SELECT pg_current_wal_lsn()::text AS lsn');
    const lsn = parseLsn(row!.lsn)!;
    if (this.primaryAt === null || lsn > this.primaryAt) this.primaryAt = lsn;
    return lsn;
  }

  /** A read of a replica failed so: it is down until a check finds it back. */
  markDown(index: number, error: unknown): void {
    const state = this.states[index];
    if (!state) return;
    state.up = false;
    state.problem = error instanceof Error ? error.message : String(error);
    state.checkedAt = Date.now();
  }

  /** The replicas up at their last check (a replica found down is used again once a check finds it back). */
  private usable(): number[] {
    return this.states.flatMap((state, i) => (state.up ? [i] : []));
  }

  private async checkAll(): Promise<void> {
    await this.primaryPosition().catch(() => undefined);
    await Promise.all(this.states.map((_, i) => this.check(i)));
  }

  private check(index: number): Promise<void> {
    const state = this.states[index]!;
    state.checking ??= this.checkNow(index).finally(() => (state.checking = null));
    return state.checking;
  }

  private async checkNow(index: number): Promise<void> {
    const state = this.states[index]!;
    try {
      const [row] = await this.replicas[index]!.execute<{ lsn: string | null; recovery: boolean }[]>(
        'SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS recovery',
      );
      const replayed = row?.lsn ? parseLsn(row.lsn) : null;
      if (!row?.recovery || replayed === null) throw new Error('not a replica in recovery (promoted, or not replaying)');
      state.up = true;
      state.problem = null;
      state.replayed = replayed;
      state.lagBytes = this.primaryAt === null ? null : Math.max(0, Number(this.primaryAt - replayed));
    } catch (error) {
      state.up = false;
      state.problem = error instanceof Error ? error.message : String(error);
    } finally {
      state.checkedAt = Date.now();
    }
  }
}

type Execute = PostgreSqlConnection['execute'];

/**
 * The PostgreSQL driver with read replicas routed per unit of work: inside a {@link ReadScope}
 * naming a replica, plain statements (outside transactions) go to that replica, whether MikroORM
 * asks for a `read` connection (`em.find`, query builders) or a `write` one (`em.execute` of a
 * SELECT); transactions, and everything outside such a scope, go to the primary. A statement the
 * replica cannot run is run on the primary instead, and the rest of the scope stays there: a lost
 * or restarting replica (the replica is marked down), a recovery conflict, or a statement that
 * writes (the scope is marked as having written).
 */
export class ReplicaRoutingDriver extends PostgreSqlDriver {
  readonly replicaSet: ReplicaSet;
  private readonly routed: PostgreSqlConnection[];

  constructor(config: Configuration) {
    super(config);
    const names = (config.get('replicas') ?? []).map((replica, i) => replica.name ?? `replica-${i}`);
    const primary = this.connection as PostgreSqlConnection;
    const replicas = this.replicas as PostgreSqlConnection[];
    this.replicaSet = new ReplicaSet(primary, replicas, names);
    this.routed = replicas.map((replica, index) => this.routedTo(primary, replica, index));
  }

  override getConnection(type: ConnectionType = 'write'): PostgreSqlConnection {
    const scope = scopes.getStore();
    if (scope && scope.replica !== null && this.routed[scope.replica]) return this.routed[scope.replica]!;
    // Never a random replica outside a scope that chose one (MikroORM's default for `read`).
    void type;
    return this.connection as PostgreSqlConnection;
  }

  override async close(force?: boolean): Promise<void> {
    this.replicaSet.stop();
    await super.close(force);
  }

  /**
   * Runs `run` on the pool of the server the current read scope reads from: the replica it chose
   * (falling back to the primary as {@link routedTo} does), or the primary. For statements sent
   * to the pool directly (see queryPrepared), never inside a transaction.
   */
  async onReadServer<T>(run: (pool: Pool) => Promise<T>): Promise<T> {
    const primary = this.connection as PostgreSqlConnection;
    const onPrimary = async () => run(await primary.getNativeClient());
    const scope = scopes.getStore();
    const replica = scope && scope.replica !== null ? (this.replicas as PostgreSqlConnection[])[scope.replica] : undefined;
    if (!scope || !replica) return onPrimary();
    return this.fallingBack(scope, scope.replica!, async () => run(await replica.getNativeClient()), onPrimary);
  }

  /** Runs `onReplica`; when the replica cannot run it, runs `onPrimary` and keeps the rest of the scope there. */
  private async fallingBack<T>(scope: ReadScope, index: number, onReplica: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    try {
      return await onReplica();
    } catch (error) {
      if (isReadOnlyViolation(error)) scope.wrote = true;
      else if (isReplicaUnavailable(error)) {
        scope.fellBack = true;
        this.replicaSet.markDown(index, error);
      } else throw error;
      scope.replica = null;
      return onPrimary();
    }
  }

  /** The primary connection, but for plain statements, which go to the replica (falling back as described above). */
  private routedTo(primary: PostgreSqlConnection, replica: PostgreSqlConnection, index: number): PostgreSqlConnection {
    const execute: Execute = async (query, params, method, ctx, loggerContext) => {
      const scope = scopes.getStore();
      if (ctx || !scope || scope.replica !== index) return primary.execute(query, params, method, ctx, loggerContext);
      return this.fallingBack(
        scope,
        index,
        () => replica.execute(query, params, method, ctx, loggerContext),
        () => primary.execute(query, params, method, ctx, loggerContext),
      );
    };
    return new Proxy(primary, {
      get(target, property) {
        if (property === 'execute') return execute;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}
