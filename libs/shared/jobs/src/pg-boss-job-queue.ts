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

/**
 * How a queue treats its dedupe keys, declared before its first job (`PgBossJobQueue.declare`).
 * - `exclusive` (the default): a key admits one job while it waits, is retried or runs.
 * - `serial`: jobs of one key never run at once, but while one runs another may wait behind it
 *   (one at most), so a request made while a key's job is already past the work it asked for is
 *   never lost: it runs next.
 */
export interface QueueSettings {
  readonly keys?: 'exclusive' | 'serial';
  /**
   * A new job wakes the workers of every instance at once (LISTEN/NOTIFY) instead of at their next
   * poll, and a worker that finished a job looks for the next one at once.
   */
  readonly wakeAtOnce?: boolean;
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
  private readonly settings = new Map<string, QueueSettings>();

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
      // Workers of queues declared `wakeAtOnce` are woken by a NOTIFY (one more connection); the rest poll.
      useListenNotify: true,
      superviseIntervalSeconds: settings.superviseIntervalSeconds,
      monitorIntervalSeconds: settings.superviseIntervalSeconds,
      openTelemetry: { enabled: false },
    });
    boss.on('error', (error: Error) => (options.onError ?? ((e: Error) => console.error('job queue:', e.message)))(error));
    await boss.start();
    return new PgBossJobQueue(boss, settings);
  }

  /** Settles how the queue of this name treats its keys; before any job of it is enqueued or worked. */
  declare(name: string, settings: QueueSettings): void {
    if (this.queues.has(name)) throw new Error(`The queue ${name} is already in use: declare it first`);
    this.settings.set(name, settings);
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
    const concurrency = options.concurrency ?? 1;
    const run = async (jobs: unknown[]) => {
      const job = jobs[0] as JobWithMetadata<JobPayload> | undefined;
      if (!job) return;
      await handler(job.data, { attempt: job.retryCount + 1, finalAttempt: job.retryCount >= job.retryLimit });
    };
    const polling = { includeMetadata: true as const, batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds };
    if (!this.settings.get(name)?.wakeAtOnce) {
      await this.boss.work<JobPayload>(name, { ...polling, localConcurrency: concurrency }, run);
      return;
    }
    // A worker of its own per slot, which wakes itself when it finishes a job: it looks for the next
    // one at once (a job waiting behind the one it ran among them) instead of after a polling
    // interval; when it finds none it waits for a NOTIFY, with a slow poll as the backstop.
    for (let i = 0; i < concurrency; i++) {
      let self: string | null = null;
      self = await this.boss.work<JobPayload>(
        name,
        { ...polling, localConcurrency: 1, notifyPollingIntervalSeconds: Math.max(this.options.pollingIntervalSeconds, 10) },
        async (jobs) => {
          try {
            await run(jobs);
          } finally {
            if (self) this.boss.notifyWorker(self);
          }
        },
      );
    }
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
      const declared = this.settings.get(name) ?? {};
      ready = this.boss.createQueue(name, {
        // pg-boss's `stately`: one job per key waiting and one running, never two running at once.
        policy: declared.keys === 'serial' ? 'stately' : 'exclusive',
        notify: declared.wakeAtOnce ?? false,
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
