import type { EntityManager } from '@mikro-orm/postgresql';
import type { GuideEvent } from '@rc/guides-contracts';

export interface PendingGuideEvent {
  /** The outbox row id: increasing in commit order per writer, and the event's identity for consumers. */
  readonly id: string;
  readonly event: GuideEvent;
  readonly attempts: number;
}

/** A lock key for `pg_try_advisory_xact_lock`: one deliverer at a time, so events are handled in order. */
const RELAY_LOCK = 0x67756964; // 'guid'

/**
 * The reading end of the guides outbox, for the process that delivers events to other contexts.
 * Every method joins the caller's transaction: events claimed in it are marked delivered in it,
 * together with whatever the consumers wrote, so a crash anywhere rolls all of it back and the
 * events are delivered again later.
 */
export class MikroOrmGuideEventFeed {
  constructor(private readonly em: EntityManager) {}

  /** Takes the deliverer's lock for this transaction; `false` when another process holds it. */
  async lock(): Promise<boolean> {
    const [row] = await this.em.execute<{ locked: boolean }[]>('SELECT pg_try_advisory_xact_lock(?) AS locked', [RELAY_LOCK]);
    return row!.locked;
  }

  /** Up to `limit` undelivered events due now, oldest first, locked until the transaction ends. */
  async claim(limit: number, now: Date): Promise<PendingGuideEvent[]> {
    const rows = await this.em.execute<{ id: string; payload: GuideEvent; attempts: number }[]>(
      `SELECT id, payload, attempts FROM guide_events_outbox
        WHERE delivered_at IS NULL AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
        ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`,
      [now, limit],
    );
    return rows.map((r) => ({ id: String(r.id), event: r.payload, attempts: r.attempts }));
  }

  async markDelivered(ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.em.execute(`UPDATE guide_events_outbox SET delivered_at = ?, last_error = NULL WHERE id IN (SELECT jsonb_array_elements_text(?::jsonb)::bigint)`, [at, JSON.stringify(ids)]);
  }

  /** Counts a failed attempt and puts the event aside until `retryAt`. */
  async markFailed(id: string, error: string, retryAt: Date): Promise<void> {
    await this.em.execute('UPDATE guide_events_outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?', [error.slice(0, 2000), retryAt, id]);
  }

  /** Undelivered events, and how many of those have failed at least once. */
  async backlog(): Promise<{ pending: number; failing: number }> {
    const [row] = await this.em.execute<{ pending: number; failing: number }[]>(
      'SELECT count(*)::int AS pending, count(*) FILTER (WHERE attempts > 0)::int AS failing FROM guide_events_outbox WHERE delivered_at IS NULL',
    );
    return row!;
  }
}
