/** Where one event on its way to one subscription stands. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryView {
  readonly id: number;
  /** The `webhook-id` every attempt carries (a UUID): receivers drop repeats by it. */
  readonly messageId: string;
  readonly subscriptionId: number;
  readonly eventType: string;
  readonly resource: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** When the next attempt is due (pending only). */
  readonly nextAttemptAt: Date | null;
  readonly lastAttemptAt: Date | null;
  /** The target's HTTP status at the last attempt; null when no answer came. */
  readonly lastResponseStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: Date | null;
  readonly createdAt: Date;
}

/**
 * Delays before each retry, as the Standard Webhooks reference schedule has them: 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h (a little over a day in all, eight attempts). After the last
 * failure the delivery is given up (`failed`), and an administrator may retry it.
 */
export const RETRY_DELAYS_SECONDS: readonly number[] = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];

/** When to try again after `attempts` failed attempts; null: give up. */
export function nextAttemptAfter(attempts: number, failedAt: Date): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attempts - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay * 1000);
}

/** What a target's answer means: only a 2xx is a delivery (a redirect is not followed). */
export function isDelivered(status: number): boolean {
  return status >= 200 && status < 300;
}

export interface StreamEntry {
  readonly id: number;
  /** The event's position in the outbox: the order of publication. */
  readonly seq: number;
  readonly status: DeliveryStatus;
  readonly nextAttemptAt: Date | null;
}

/**
 * The next delivery of one subscription's stream (one resource's events) to attempt now: the
 * earliest pending one, and only when it is due; a later event never overtakes an earlier one that
 * is waiting for its retry. Given-up and delivered ones do not hold the stream back.
 */
export function nextInStream(entries: readonly StreamEntry[], now: Date): StreamEntry | null {
  let head: StreamEntry | null = null;
  for (const e of entries) if (e.status === 'pending' && (!head || e.seq < head.seq)) head = e;
  if (!head) return null;
  return head.nextAttemptAt === null || head.nextAttemptAt.getTime() <= now.getTime() ? head : null;
}
