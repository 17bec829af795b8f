import { randomUUID } from 'node:crypto';
import { PgBoss, type JobWithMetadata } from 'pg-boss';
import { JobQueue, type JobHandler, type JobPayload, type JobRequest } from '@rc/shared-kernel';

export interface PgBossJobQueueOptions {
  readonly connectionString: string;
  /** pg-boss's own schema, created and migrated at start. */
  readonly schema?: string;
  /** Connections of pg-boss's pool. */
  readonly poolSize?: number;
  /** Retries after a failed run (runs = retries + 1). */
  readonly retryLimit?: number;
  /** First delay before a retry, doubled (with jitter) at each further one... */
  readonly retryDelaySeconds?: number;
  /** ...up to this. */
  readonly retryDelayMaxSeconds?: number;
  /**
   * A running job's worker proves it is alive this often; a job whose worker went silent (killed,
   * crashed, cut off) for this long is failed and retried by any instance. At least 10.
   */
  readonly heartbeatSeconds?: number;
  /** Longest a single run may take before it is failed and retried. */
  readonly expireInSeconds?: number;
  /** How often an instance looks for silent or expired jobs (and other upkeep). */
  readonly superviseIntervalSeconds?: number;
  /** How often an idle worker looks for new jobs. */
  readonly pollingIntervalSeconds?: number;
  readonly onError?: (error: Error) => void;
}

export interface WorkOptions {
  /** Jobs of this name this process runs at once. */
  readonly concurrency?: number;
}

const DEFAULTS = {
  schema: 'pgboss',
  poolSize: 4,
  retryLimit: 5,
  retryDelaySeconds: 5,
  retryDelayMaxSeconds: 600,
  heartbeatSeconds: 30,
  expireInSeconds: 3600,
  superviseIntervalSeconds: 15,
  pollingIntervalSeconds: 2,
};

/**
 * The service's one queue for background work, in PostgreSQL with pg-boss: jobs are rows, so they
 * survive restarts, and any instance can run any job (workers claim them with SKIP LOCKED). Each
 * job name is a queue of the `exclusive` policy, so a dedupe key admits one job at a time while
 * queued, retried or running. A failed run is retried with exponential backoff; a run whose
 * process dies stops sending heartbeats and is retried by the supervisor of any live instance.
 */
export class PgBossJobQueue extends JobQueue {
  private readonly queues = new Map<string, Promise<void>>();

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: typeof DEFAULTS & PgBossJobQueueOptions,
  ) {
    super();
  }

  /** Connects, creates or migrates pg-boss's schema, and starts supervising. */
  static async start(options: PgBossJobQueueOptions): Promise<PgBossJobQueue> {
    const settings = { ...DEFAULTS, ...options };
    const boss = new PgBoss({
      connectionString: settings.connectionString,
      schema: settings.schema,
      max: settings.poolSize,
      application_name: 'rc-jobs',
      superviseIntervalSeconds: settings.superviseIntervalSeconds,
      monitorIntervalSeconds: settings.superviseIntervalSeconds,
      openTelemetry: { enabled: false },
    });
    boss.on('error', (error: Error) => (options.onError ?? ((e: Error) => console.error('job queue:', e.message)))(error));
    await boss.start();
    return new PgBossJobQueue(boss, settings);
  }

  async enqueue(job: JobRequest): Promise<boolean> {
    await this.queue(job.name);
    const id = await this.boss.send(job.name, { ...job.payload }, {
      singletonKey: job.dedupeKey ?? randomUUID(),
      ...(job.delaySeconds ? { startAfter: job.delaySeconds } : {}),
    });
    return id !== null;
  }

  /** Runs jobs of this name in this process until `stop`. */
  async work(name: string, handler: JobHandler, options: WorkOptions = {}): Promise<void> {
    await this.queue(name);
    await this.boss.work<JobPayload>(
      name,
      { includeMetadata: true, batchSize: 1, localConcurrency: options.concurrency ?? 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds },
      async (jobs) => {
        const job = jobs[0] as JobWithMetadata<JobPayload> | undefined;
        if (!job) return;
        await handler(job.data, { attempt: job.retryCount + 1, finalAttempt: job.retryCount >= job.retryLimit });
      },
    );
  }

  /** Stops workers (waiting up to `timeoutMs` for running jobs, which are retried elsewhere otherwise) and closes the pool. */
  async stop(timeoutMs = 10_000): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }

  /** The jobs of a name by state (tests, operators). */
  async counts(name: string): Promise<Record<string, number>> {
    await this.queue(name);
    const jobs = await this.boss.findJobs(name);
    const counts: Record<string, number> = {};
    for (const job of jobs) counts[job.state] = (counts[job.state] ?? 0) + 1;
    return counts;
  }

  private queue(name: string): Promise<void> {
    let ready = this.queues.get(name);
    if (!ready) {
      const o = this.options;
      ready = this.boss.createQueue(name, {
        policy: 'exclusive',
        retryLimit: o.retryLimit,
        retryDelay: o.retryDelaySeconds,
        retryBackoff: true,
        retryDelayMax: o.retryDelayMaxSeconds,
        heartbeatSeconds: o.heartbeatSeconds,
        expireInSeconds: o.expireInSeconds,
      });
      ready.catch(() => this.queues.delete(name));
      this.queues.set(name, ready);
    }
    return ready;
  }
}
