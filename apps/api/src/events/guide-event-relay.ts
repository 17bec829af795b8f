import { RequestContext } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { MikroOrmGuideEventFeed, type PendingGuideEvent } from '@rc/guides-infra-mikro-orm';
import type { HandleGuideEvent } from '@rc/reputation-domain';
import { NotifiedLoop } from '@rc/shared-infra-mikro-orm';
import type { Clock, UnitOfWork } from '@rc/shared-kernel';
import type { Logger } from 'pino';

export interface RelayOptions {
  /** Events per transaction. */
  readonly batchSize: number;
  /** How long to wait for a NOTIFY before looking again anyway. */
  readonly pollMs: number;
  /** First retry delay of a failing event; doubled per attempt, at most an hour. */
  readonly retryBaseMs: number;
}

export const DEFAULT_RELAY_OPTIONS: RelayOptions = { batchSize: 100, pollMs: 5000, retryBaseMs: 1000 };

/**
 * Delivers the guides context's outbox to the reputation context. One batch is one transaction:
 * the events are claimed (locked), handled (reputation writes its facts, points and awards) and
 * marked delivered together, so a crash at any point rolls the whole batch back and it is
 * delivered again; the consumer also skips event ids it has already handled. An advisory lock
 * keeps one deliverer at a time across processes, so events are handled in order.
 *
 * Woken by NOTIFY (sent when a transaction that wrote events commits), with a slow poll as the
 * fallback for a lost listener connection. An event whose handling throws is retried alone,
 * later, with a growing delay, without holding back the events behind it.
 */
export class GuideEventRelay {
  private readonly feed: MikroOrmGuideEventFeed;
  private loop: NotifiedLoop | null = null;

  constructor(
    private readonly orm: MikroORM,
    private readonly uow: UnitOfWork,
    private readonly handler: HandleGuideEvent,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: RelayOptions = DEFAULT_RELAY_OPTIONS,
  ) {
    this.feed = new MikroOrmGuideEventFeed(orm.em);
  }

  /** Started and not stopped: delivering in the background (the readiness probe asks). */
  get isRunning(): boolean {
    return this.loop?.isRunning ?? false;
  }

  /** Delivers one batch; the number of events delivered (0: none due, or another process is delivering). */
  async deliverBatch(): Promise<number> {
    try {
      return await this.inTransaction(async () => {
        if (!(await this.feed.lock())) return 0;
        const events = await this.feed.claim(this.options.batchSize, this.clock.now());
        for (const pending of events) await this.handler.execute(pending.id, pending.event);
        await this.feed.markDelivered(
          events.map((e) => e.id),
          this.clock.now(),
        );
        return events.length;
      });
    } catch (error) {
      this.logger.warn({ err: error, context: 'events' }, 'event batch failed: delivering one by one');
      return this.deliverSingly();
    }
  }

  /** Delivers until nothing is due; the number delivered. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.deliverBatch();
      total += n;
      if (n === 0) return total;
    }
  }

  backlog(): Promise<{ pending: number; failing: number }> {
    return RequestContext.create(this.orm.em, () => this.feed.backlog());
  }

  /** Starts delivering in the background: now, on every NOTIFY, and every `pollMs`. */
  async start(databaseUrl: string): Promise<void> {
    if (this.loop) return;
    this.loop = new NotifiedLoop({
      url: databaseUrl,
      channel: 'guide_events',
      idleMs: this.options.pollMs,
      round: async () => (await this.deliverBatch()) === this.options.batchSize,
      logger: this.logger,
      context: 'events',
      failure: 'event delivery failed',
    });
    await this.loop.start();
  }

  /** Stops after the batch in flight (whose transaction commits or rolls back whole). */
  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = null;
  }

  /** After a failed batch: each event in its own transaction; one that fails is put aside for later. */
  private async deliverSingly(): Promise<number> {
    let delivered = 0;
    for (let i = 0; i < this.options.batchSize; i++) {
      let current: PendingGuideEvent | null = null;
      try {
        const n = await this.inTransaction(async () => {
          if (!(await this.feed.lock())) return -1;
          const [pending] = await this.feed.claim(1, this.clock.now());
          if (!pending) return -1;
          current = pending;
          await this.handler.execute(pending.id, pending.event);
          await this.feed.markDelivered([pending.id], this.clock.now());
          return 1;
        });
        if (n < 0) break;
        delivered += n;
      } catch (error) {
        const failed = current as PendingGuideEvent | null;
        if (!failed) throw error;
        const delay = Math.min(this.options.retryBaseMs * 2 ** failed.attempts, 3_600_000);
        this.logger.error({ err: error, context: 'events', eventId: failed.id, attempts: failed.attempts + 1 }, 'event handling failed; will retry');
        await this.inTransaction(() => this.feed.markFailed(failed.id, String((error as Error)?.message ?? error), new Date(this.clock.now().getTime() + delay)));
      }
    }
    return delivered;
  }

  private inTransaction<T>(work: () => Promise<T>): Promise<T> {
    return RequestContext.create(this.orm.em, () => this.uow.run(work));
  }
}
