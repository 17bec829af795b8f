import { RequestContext } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { PgListener } from '@rc/shared-infra-mikro-orm';
import type { BackgroundJobs } from '@rc/shared-jobs';
import type { JobHandler } from '@rc/shared-kernel';
import { DELIVER_JOB, type WebhookDispatcher, type WebhooksConfig } from '@rc/webhooks-infra-mikro-orm';
import type { Logger } from 'pino';

/**
 * The webhooks' background work. Deliveries are jobs on the app's queue (`handlers`, run by `start`:
 * any instance runs them, and a job whose process dies is run again). `start` keeps a sweeper in this process:
 * woken by the outbox's NOTIFY (an event committed) and every `sweepSeconds` (retries falling due,
 * a lost notification), it fans new events out and enqueues the streams with a delivery due.
 */
/** Delivered and given-up deliveries (and their events) are kept this long, for the deliveries list. */
export const WEBHOOK_RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 3600_000;

export class WebhookJobs {
  private running = false;
  private prunedAt = 0;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private nudged = false;
  private listener: PgListener | null = null;

  constructor(
    private readonly orm: MikroORM,
    private readonly dispatcher: WebhookDispatcher,
    private readonly config: WebhooksConfig,
    private readonly logger: Logger,
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
    if (this.running) return;
    await jobs.work(this.handlers, this.config.workerConcurrency);
    this.running = true;
    this.listener = new PgListener({
      url: databaseUrl,
      channels: ['webhook_events'],
      onNotify: () => this.nudge(),
      onConnect: () => this.nudge(),
      onError: (error) => this.logger.warn({ err: error, context: 'webhooks' }, 'webhook listener connection lost; reconnecting'),
    });
    await this.listener.start();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
    this.loop = null;
    await this.listener?.stop();
    this.listener = null;
  }

  /** One sweep now (tests, operators). */
  sweep(): Promise<{ fannedOut: number; enqueued: number }> {
    return RequestContext.create(this.orm.em, () => this.dispatcher.sweep());
  }

  private nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.nudged = false;
      try {
        await this.sweep();
        if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
          this.prunedAt = Date.now();
          await RequestContext.create(this.orm.em, () => this.dispatcher.prune(new Date(Date.now() - WEBHOOK_RETENTION_DAYS * 86_400_000)));
        }
      } catch (error) {
        this.logger.error({ err: error, context: 'webhooks' }, 'webhook sweep failed');
      }
      if (!this.running) break;
      if (this.nudged) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.config.sweepSeconds * 1000);
        timer.unref();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}
