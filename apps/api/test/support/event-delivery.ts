/**
 * Whether a SQL statement belongs to the background delivery of guide events to reputation (the
 * relay's lock, claims and marks, and reputation's writes), not to the request being measured.
 */
export function isEventDelivery(sql: string): boolean {
  return /pg_try_advisory_xact_lock|guide_events_outbox|reputation_|badge_awards|from "?badges"? /i.test(sql);
}
