import { Migration } from '@mikro-orm/migrations';

/**
 * Delivery bookkeeping for the outbox: failed attempts are counted and retried later instead of
 * blocking the events behind them, and every committed insert wakes listeners (NOTIFY is sent on
 * commit only, so a listener never sees an event that could still roll back).
 */
export class GuideEventsDelivery extends Migration {
  override name = '20261123100100-guide-events-delivery';

  up(): void {
    this.addSql(`
      ALTER TABLE guide_events_outbox
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN last_error text NULL,
        ADD COLUMN next_attempt_at timestamptz NULL;
      ALTER TABLE guide_events_outbox ALTER COLUMN attempts DROP DEFAULT;

      -- Named as the schema (GuideEventRowSchema.triggers) declares it.
      CREATE FUNCTION guide_events_outbox_guide_events_outbox_notify_fn() RETURNS trigger LANGUAGE plpgsql AS $$ begin perform pg_notify('guide_events', ''); return null; end; $$;
      CREATE TRIGGER guide_events_outbox_notify AFTER INSERT ON guide_events_outbox
        FOR EACH STATEMENT EXECUTE FUNCTION guide_events_outbox_guide_events_outbox_notify_fn();
    `);
  }
}
