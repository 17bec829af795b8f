/**
 * Whether a SQL statement belongs to background work rather than to the request being measured:
 * the delivery of guide events to reputation (the relay's lock, claims and marks, and reputation's
 * writes), and the webhooks' sweeper (its fan-out of the outbox and its look at the deliveries due,
 * every WEBHOOK_SWEEP_SECONDS), and the view counters' flushes (every VIEW_FLUSH_SECONDS, one
 * statement adding the views counted to `guide_stats` or `wiki_page_stats`). A write's own insert
 * into the webhooks' outbox still counts.
 */
export function isEventDelivery(sql: string): boolean {
  return /pg_try_advisory_xact_lock|guide_events_outbox|reputation_|badge_awards|from "?badges"? |webhook_deliveries|from webhook_outbox where dispatched_at is null|insert into (guide_stats|wiki_page_stats) as s /i.test(sql);
}
