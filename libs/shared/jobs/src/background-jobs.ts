import { RequestContext } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { PgBossJobQueue, type QueueSettings } from './pg-boss-job-queue.js';
import { JobQueue, type JobHandler, type JobRequest } from '@rc/shared-kernel';
import type { Logger } from 'pino';

/**
 * A process's job queue (the kernel's `JobQueue`, which the contexts' use cases enqueue to) and
 * its workers: the app binds it as `JobQueue` and starts it with every context's handlers. pg-boss
 * is started after the migrations (`start`), so nothing is enqueued before; every job runs in its
 * own MikroORM context (a fork of the EntityManager), as a request does.
 */
export class BackgroundJobs extends JobQueue {
  private queue: PgBossJobQueue | null = null;

  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Logger,
  ) {
    super();
  }

  /** Connects pg-boss (creating or migrating its schema) and, when `concurrency` > 0, runs the handlers' jobs in this process. */
  async start(databaseUrl: string, handlers: Readonly<Record<string, JobHandler>>, concurrency: number): Promise<void> {
    if (this.queue) return;
    this.queue = await PgBossJobQueue.start({
      connectionString: databaseUrl,
      onError: (error) => this.logger.warn({ err: error, context: 'jobs' }, 'job queue error'),
    });
    await this.work(handlers, concurrency);
  }

  /** After `start`: runs these handlers' jobs in this process too, `concurrency` at once per kind (0: none, another process runs them). */
  async work(handlers: Readonly<Record<string, JobHandler>>, concurrency: number): Promise<void> {
    const queue = this.queue;
    if (!queue) throw new Error('The job queue is not started yet');
    if (concurrency <= 0) return;
    for (const [name, handler] of Object.entries(handlers)) {
      await queue.work(name, (payload, run) => this.runOne(name, handler, payload, run), { concurrency });
    }
  }

  private async runOne(name: string, handler: JobHandler, ...args: Parameters<JobHandler>): Promise<void> {
    try {
      await RequestContext.create(this.orm.em, () => handler(...args));
    } catch (error) {
      this.logger.warn({ err: error, context: 'jobs', job: name, attempt: args[1].attempt }, 'job failed');
      throw error;
    }
  }

  /** After `start`, before the queue's first job: how it treats its keys (see `QueueSettings`). */
  declare(name: string, settings: QueueSettings): void {
    if (!this.queue) throw new Error('The job queue is not started yet');
    this.queue.declare(name, settings);
  }

  enqueue(job: JobRequest): Promise<boolean> {
    if (!this.queue) throw new Error('The job queue is not started yet');
    return this.queue.enqueue(job);
  }

  /** Stops the workers (letting running jobs finish, up to 10 s) and closes pg-boss's pool. */
  async stop(): Promise<void> {
    const queue = this.queue;
    this.queue = null;
    await queue?.stop();
  }
}
