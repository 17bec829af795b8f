import { RequestContext } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { NotifiedLoop } from '@rc/shared-infra-mikro-orm';
import type { BackgroundJobs } from '@rc/shared-jobs';
import type { JobHandler } from '@rc/shared-kernel';
import { DELIVER_JOB, type WebhookAgents, type WebhookDispatcher, type WebhooksConfig } from '@rc/webhooks-infra-mikro-orm';
import type { Logger } from 'pino';

/**
 * The webhooks' background work. Deliveries are jobs on the app's queue (`handlers`, run by `start`:
 * any instance runs them, and a job whose process dies is run again), one job per stream (a
 * subscription and a resource) sending its due events in order; the queue runs one job of a stream
 * at a time, holds one more behind it, and wakes the workers at once (NOTIFY) when a job is added.
 * `start` keeps a sweeper in this process: woken by the outbox's NOTIFY (an event committed) and
 * every `sweepSeconds` (retries falling due, a lost notification), it fans new events out and
 * enqueues the streams with a delivery due.
 */
/** Delivered and given-up deliveries (and their events) are kept this long, for the deliveries list. */
export const WEBHOOK_RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 3600_000;

export class WebhookJobs {
  private prunedAt = 0;
  private sweptAt = 0;
  private loop: NotifiedLoop | null = null;

  constructor(
    private readonly orm: MikroORM,
    private readonly dispatcher: WebhookDispatcher,
    private readonly config: WebhooksConfig,
    private readonly logger: Logger,
    /** The sender's kept-alive connections, closed by `closeConnections`. */
    private readonly agents: WebhookAgents | null = null,
  ) {}

  get handlers(): Record<string, JobHandler> {
    return {
      [DELIVER_JOB]: async (payload) => {
        await this.dispatcher.deliverStream(Number(payload['subscriptionId']), String(payload['resource']));
      },
    };
  }

  /** Runs the delivery jobs on `jobs` (`WEBHOOK_WORKER_CONCURRENCY` at once) and starts the sweeper. */
  async start(databaseUrl: string, jobs: BackgroundJobs): Promise<void> {
    if (this.loop) return;
    jobs.declare(DELIVER_JOB, { keys: 'serial', wakeAtOnce: true });
    await jobs.work(this.handlers, this.config.workerConcurrency);
    this.loop = new NotifiedLoop({
      url: databaseUrl,
      channel: 'webhook_events',
      idleMs: this.config.sweepSeconds * 1000,
      round: () => this.round(),
      logger: this.logger,
      context: 'webhooks',
      failure: 'webhook sweep failed',
    });
    await this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = null;
  }

  /** Closes the sender's kept-alive connections: once no job runs any more (after the job queue stopped). */
  closeConnections(): void {
    this.agents?.destroy();
  }

  /** One full sweep now (tests, operators). */
  sweep(full = true): Promise<{ fannedOut: number; enqueued: number }> {
    return RequestContext.create(this.orm.em, () => this.dispatcher.sweep({ full }));
  }

  /**
   * A sweep, and the pruning of old deliveries once an hour; never more waiting at once. A round
   * woken by new events enqueues the streams they went to; a full sweep (every stream due: retries,
   * lost jobs) runs at most every `sweepSeconds`, and whenever the loop has waited that long.
   */
  private async round(): Promise<boolean> {
    const full = Date.now() - this.sweptAt >= this.config.sweepSeconds * 1000;
    if (full) this.sweptAt = Date.now();
    await this.sweep(full);
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await RequestContext.create(this.orm.em, () => this.dispatcher.prune(new Date(Date.now() - WEBHOOK_RETENTION_DAYS * 86_400_000)));
    }
    return false;
  }
}
