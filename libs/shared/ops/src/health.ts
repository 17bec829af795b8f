import type { HealthCheckResult, HealthCheckService, HealthIndicatorService, MikroOrmHealthIndicator } from '@nestjs/terminus';
import type { Logger } from 'pino';

/** A process's background work that readiness requires to be running (a relay, a scheduler, a job queue). */
export interface BackgroundWorker {
  readonly name: string;
  running(): boolean;
}

/** An answer of a probe: the status and the JSON body. */
export interface ProbeAnswer {
  readonly status: 200 | 503;
  readonly body: Record<string, unknown>;
}

export interface ReadinessOptions {
  /** How long the database may take to answer `SELECT 1`. */
  readonly databaseTimeoutMs: number;
  /** How long reading the pending migrations may take. */
  readonly migrationsTimeoutMs: number;
}

export const DEFAULT_READINESS: ReadinessOptions = { databaseTimeoutMs: 1000, migrationsTimeoutMs: 2000 };

/**
 * The liveness and readiness probes, as terminus health checks. Live: the process answers. Ready:
 * not shutting down, the database answers `SELECT 1` in time, no migration is pending (asked
 * until none is, then remembered: migrations only ever run at start), and every background worker
 * of this process runs. A shutdown turns readiness down first, before the server stops accepting
 * connections, so a gateway stops sending new requests here.
 */
export class Probes {
  private shuttingDown = false;
  private migrationsApplied = false;
  private wasReady: boolean | null = null;
  private readonly started = Date.now();
  /**
   * The read replicas as last checked, shown by readiness (`null`: none configured). They never
   * make the process unready: reads fall back to the primary while a replica is down or behind.
   */
  replicas: (() => readonly object[]) | null = null;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: MikroOrmHealthIndicator,
    private readonly pendingMigrations: () => Promise<readonly string[]>,
    private readonly workers: readonly BackgroundWorker[],
    private readonly logger: Logger,
    private readonly options: ReadinessOptions = DEFAULT_READINESS,
  ) {}

  /** From now on readiness answers 503: the process is stopping. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  live(): Promise<ProbeAnswer> {
    return this.run([() => this.indicators.check('process').up({ pid: process.pid, uptimeSeconds: Math.round((Date.now() - this.started) / 1000) })]);
  }

  async ready(): Promise<ProbeAnswer> {
    // Stopping: nothing else matters (and the pool may be closing).
    const answer = this.shuttingDown
      ? await this.run([() => this.indicators.check('shutdown').down({ message: 'the server is shutting down' })])
      : await this.run([
          () => this.database.pingCheck('database', { timeout: this.options.databaseTimeoutMs }),
          () => this.indicators.check('migrations').attempt(() => this.migrations()).withTimeout(this.options.migrationsTimeoutMs),
          () => this.workersCheck(),
          ...(this.replicas ? [() => this.indicators.check('replicas').up({ replicas: this.replicas!() })] : []),
        ]);
    const ready = answer.status === 200;
    if (ready !== this.wasReady && !this.shuttingDown) {
      // Transitions only: a probe every few seconds must not fill the log.
      if (ready) this.logger.info({ context: 'health' }, 'ready');
      else this.logger.warn({ context: 'health', details: answer.body['details'] }, 'not ready');
    }
    this.wasReady = ready;
    return answer;
  }

  private async migrations(): Promise<Record<string, unknown>> {
    if (this.migrationsApplied) return { pending: 0 };
    const pending = await this.pendingMigrations();
    if (pending.length) throw new Error(`${pending.length} pending: ${pending.join(', ')}`);
    this.migrationsApplied = true;
    return { pending: 0 };
  }

  private workersCheck() {
    const check = this.indicators.check('workers');
    const states = Object.fromEntries(this.workers.map((w) => [w.name, w.running() ? 'running' : 'stopped']));
    return Object.values(states).every((s) => s === 'running') ? check.up(states) : check.down(states);
  }

  /**
   * Runs the checks: 200 with terminus's body (`status`, `info`, `error`, `details`), or 503 with
   * the API's error envelope (`error: true`, `message` naming what is down) and terminus's
   * `status`, `info` and `details`.
   */
  private async run(checks: Parameters<HealthCheckService['check']>[0]): Promise<ProbeAnswer> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check(checks);
      return { status: 200, body: result };
    } catch (error) {
      const response = (error as { getResponse?: () => unknown }).getResponse?.();
      if (!response || typeof response !== 'object' || !('details' in response)) throw error;
      result = response as HealthCheckResult;
    }
    const down = Object.keys(result.error ?? {});
    return {
      status: 503,
      body: { error: true, message: `Not ready: ${down.join(', ') || result.status}`, status: result.status, info: result.info, details: result.details },
    };
  }
}
