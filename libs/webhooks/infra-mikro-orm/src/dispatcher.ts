import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock, JobQueue, JobPayload } from '@rc/shared-kernel';
import { isDelivered, nextAttemptAfter, nextInStream, type DeliveryStatus } from '@rc/webhooks-domain';
import { sendWebhook, type SendResult, type SenderOptions } from './sender.js';
import { webhookHeaders } from './signing.js';

/**
 * The delivery jobs' queue: one job per stream (dedupe key), never two of a stream running at once,
 * and one more may wait behind a running one (declared `serial`), so an event committed while its
 * stream's job is finishing is sent by the next one instead of waiting for a sweep.
 */
export const DELIVER_JOB = 'webhooks.stream';

/** The outbox rows fanned out per statement, and the streams enqueued per sweep. */
const BATCH = 500;
/** Deliveries one job sends before it leaves the rest of its stream to the next job. */
const PER_JOB = 500;
/** A stream's pending deliveries read (and marked delivered) at a time. */
const STREAM_BATCH = 50;

export type Send = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

/**
 * Moves events from the outbox to subscribers.
 *
 * - `sweep` fans committed outbox rows out to one delivery row per interested subscription (rows
 *   claimed with SKIP LOCKED, so any number of instances may sweep at once), then enqueues one
 *   job per stream (a subscription and a resource) that got a delivery, and in a full sweep every
 *   stream that has a delivery due. The job's dedupe key is the stream, so one job at a time sends
 *   a stream's events, in order.
 * - `deliverStream` (the job) sends the stream's pending deliveries earliest first, each signed,
 *   until one fails: that one waits for its retry (the backoff schedule) and holds the later ones
 *   back. A delivery is marked delivered only after a 2xx, so a crash between the two sends it
 *   again (at least once; the `webhook-id` lets the receiver drop the repeat).
 */
export class WebhookDispatcher {
  private readonly send: Send;

  constructor(
    private readonly em: EntityManager,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    sender: SenderOptions | Send,
  ) {
    this.send = typeof sender === 'function' ? sender : (url, headers, body) => sendWebhook(url, headers, body, sender);
  }

  /**
   * Fans out what the outbox holds and enqueues the streams that got new deliveries; with `full`
   * (the default), also every stream due (retries falling due, a job lost). How many of each.
   */
  async sweep(options: { full?: boolean } = {}): Promise<{ fannedOut: number; enqueued: number }> {
    let fannedOut = 0;
    const streams = new Map<string, { subscription_id: number; resource: string }>();
    for (;;) {
      const batch = await this.fanOut();
      fannedOut += batch.events;
      for (const s of batch.streams) streams.set(`${s.subscription_id}|${s.resource}`, s);
      if (batch.events < BATCH) break;
    }
    if (options.full ?? true) {
      const due = await this.em.execute<{ subscription_id: number; resource: string }[]>(
        // A stream is due when its earliest pending delivery is (the later ones wait behind it) and
        // its subscription is enabled (a paused one keeps its pending deliveries for later).
        `SELECT heads.subscription_id, heads.resource FROM (
           SELECT DISTINCT ON (subscription_id, resource) subscription_id, resource, next_attempt_at
           FROM webhook_deliveries WHERE status = 'pending' ORDER BY subscription_id, resource, event_seq
         ) heads JOIN webhook_subscriptions s ON s.id = heads.subscription_id AND s.enabled
         WHERE heads.next_attempt_at <= ? LIMIT ${BATCH}`,
        [this.clock.now()],
      );
      for (const s of due) streams.set(`${s.subscription_id}|${s.resource}`, s);
    }
    let enqueued = 0;
    for (const s of streams.values()) if (await this.jobs.enqueue(deliverJob(s.subscription_id, s.resource))) enqueued++;
    return { fannedOut, enqueued };
  }

  /**
   * Forgets what is done with: deliveries delivered or given up before `before`, then outbox rows
   * dispatched before it that no delivery refers to any more. Pending deliveries (and their events)
   * stay however old. The numbers of each removed.
   */
  async prune(before: Date): Promise<{ deliveries: number; events: number }> {
    const deliveries = await this.em.execute(`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < ? RETURNING 1 AS gone`, [before]);
    const events = await this.em.execute(
      `DELETE FROM webhook_outbox o WHERE o.dispatched_at < ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = o.seq) RETURNING 1 AS gone`,
      [before],
    );
    return { deliveries: deliveries.length, events: events.length };
  }

  /**
   * One batch of the outbox, in one statement: delivery rows for the subscribers, the rows marked
   * dispatched; how many rows, and the streams that got deliveries.
   */
  private async fanOut(): Promise<{ events: number; streams: { subscription_id: number; resource: string }[] }> {
    const now = this.clock.now();
    const [row] = await this.em.execute<{ events: number; streams: { subscription_id: number; resource: string }[] | string }[]>(
      `WITH batch AS (
         SELECT seq, type, resource FROM webhook_outbox WHERE dispatched_at IS NULL ORDER BY seq LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
       ), fanned AS (
         INSERT INTO webhook_deliveries (message_id, subscription_id, event_seq, resource, status, attempts, next_attempt_at, created_at)
         SELECT gen_random_uuid(), s.id, b.seq, b.resource, 'pending', 0, ?, ? FROM batch b JOIN webhook_subscriptions s ON s.enabled AND b.type = ANY (s.events)
         ON CONFLICT (subscription_id, event_seq) DO NOTHING
         RETURNING subscription_id, resource
       ), marked AS (
         UPDATE webhook_outbox o SET dispatched_at = ? FROM batch b WHERE o.seq = b.seq RETURNING o.seq
       )
       SELECT (SELECT count(*) FROM marked)::int AS events,
              (SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_object('subscription_id', subscription_id, 'resource', resource)), '[]'::jsonb) FROM fanned) AS streams`,
      [now, now, now],
    );
    const streams = typeof row!.streams === 'string' ? (JSON.parse(row!.streams) as { subscription_id: number; resource: string }[]) : row!.streams;
    return { events: row!.events, streams };
  }

  /**
   * Sends a stream's due deliveries in order (the job's work); how many were delivered. The
   * stream's pending deliveries are read `STREAM_BATCH` at a time with their bodies and the
   * subscription's target and secret (none while it is paused), sent one after the other, and those delivered are marked in one statement
   * per batch (and before a failure is recorded). A crash before the mark sends them again: at
   * least once, and the receiver drops the repeats by `webhook-id`.
   */
  async deliverStream(subscriptionId: number, resource: string): Promise<number> {
    let delivered = 0;
    while (delivered < PER_JOB) {
      // With the subscription's target and secret as they are now (none while it is paused).
      const rows = await this.em.execute<PendingRow[]>(
        `SELECT d.id, d.message_id, d.event_seq AS seq, d.status, d.next_attempt_at, d.attempts, o.body, s.url, s.secret
         FROM webhook_deliveries d JOIN webhook_outbox o ON o.seq = d.event_seq JOIN webhook_subscriptions s ON s.id = d.subscription_id AND s.enabled
         WHERE d.subscription_id = ? AND d.resource = ? AND d.status = 'pending' ORDER BY d.event_seq LIMIT ${STREAM_BATCH}`,
        [subscriptionId, resource],
      );
      const done: { id: string; attempts: number; status: number; at: Date }[] = [];
      let stop = false;
      for (const row of rows) {
        const now = this.clock.now();
        // Each must be due in its turn (the head may wait for a retry; one retried by hand is due now).
        if (!nextInStream([{ id: Number(row.id), seq: Number(row.seq), status: row.status, nextAttemptAt: row.next_attempt_at && new Date(row.next_attempt_at) }], now)) {
          stop = true;
          break;
        }
        const result = await this.send(row.url, webhookHeaders(row.secret, row.message_id, Math.floor(now.getTime() / 1000), row.body), row.body);
        const at = this.clock.now();
        const attempts = row.attempts + 1;
        const status = 'status' in result ? result.status : null;
        if (status !== null && isDelivered(status)) {
          done.push({ id: row.id, attempts, status, at });
          continue;
        }
        await this.markDelivered(done);
        delivered += done.length;
        done.length = 0;
        const next = nextAttemptAfter(attempts, at);
        const error = 'error' in result ? result.error.slice(0, 500) : `answered ${status}`;
        await this.em.execute(
          `UPDATE webhook_deliveries SET status = ?, attempts = ?, last_attempt_at = ?, last_response_status = ?, last_error = ?, next_attempt_at = ? WHERE id = ? AND status = 'pending'`,
          [next ? 'pending' : 'failed', attempts, at, status, error, next, row.id],
        );
        // Given up: the stream goes on with the next event; otherwise it waits for this one's retry.
        if (next) {
          stop = true;
          break;
        }
      }
      await this.markDelivered(done);
      delivered += done.length;
      if (stop || rows.length < STREAM_BATCH) return delivered;
    }
    return delivered;
  }

  /** Marks these deliveries delivered, in one statement. */
  private async markDelivered(done: readonly { id: string; attempts: number; status: number; at: Date }[]): Promise<void> {
    if (!done.length) return;
    await this.em.execute(
      `UPDATE webhook_deliveries d SET status = 'delivered', attempts = x.attempts, last_attempt_at = x.at, last_response_status = x.status, last_error = NULL, delivered_at = x.at, next_attempt_at = NULL
       FROM jsonb_to_recordset(?::jsonb) AS x (id bigint, attempts int, status int, at timestamptz)
       WHERE d.id = x.id AND d.status = 'pending'`,
      [JSON.stringify(done)],
    );
  }
}

interface PendingRow {
  id: string;
  message_id: string;
  seq: string;
  status: DeliveryStatus;
  next_attempt_at: Date | null;
  attempts: number;
  body: string;
  url: string;
  secret: string;
}

export function deliverJob(subscriptionId: number, resource: string): { name: string; payload: JobPayload; dedupeKey: string } {
  return { name: DELIVER_JOB, payload: { subscriptionId, resource }, dedupeKey: `${subscriptionId}|${resource}` };
}
