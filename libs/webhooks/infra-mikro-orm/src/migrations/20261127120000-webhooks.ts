import { Migration } from '@mikro-orm/migrations';
import { rowTriggerSql } from '@rc/shared-infra-mikro-orm';
import { OUTBOX_NOTIFY_TRIGGER_BODY } from '../schemas/webhooks.schemas.js';

/**
 * Webhooks: the subscriptions, the outbox every context writes its integration events to (in the
 * transaction of the change), and one delivery row per event and subscription. A committed outbox
 * row announces itself on `webhook_events`, so a dispatcher fans it out at once.
 */
export class WebhooksInitial extends Migration {
  override name = '20261127120000-webhooks';

  up(): void {
    this.addSql(`
      CREATE TABLE webhook_subscriptions (
        id serial PRIMARY KEY,
        url text NOT NULL,
        events text[] NOT NULL,
        description text NOT NULL,
        enabled boolean NOT NULL,
        secret text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE webhook_outbox (
        seq bigserial PRIMARY KEY,
        type varchar(64) NOT NULL,
        resource varchar(512) NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL,
        dispatched_at timestamptz NULL
      );
      CREATE INDEX webhook_outbox_undispatched_idx ON webhook_outbox (seq) WHERE dispatched_at IS NULL;
      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        message_id uuid NOT NULL CONSTRAINT webhook_deliveries_message_key UNIQUE,
        subscription_id integer NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
        event_seq bigint NOT NULL REFERENCES webhook_outbox (seq),
        resource varchar(512) NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL,
        next_attempt_at timestamptz NULL,
        last_attempt_at timestamptz NULL,
        last_response_status integer NULL,
        last_error text NULL,
        delivered_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT webhook_deliveries_once UNIQUE (subscription_id, event_seq)
      );
      CREATE INDEX webhook_deliveries_stream_idx ON webhook_deliveries (subscription_id, resource, event_seq) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_seq);
    `);
    // Named as the schema declares it.
    this.addSql(rowTriggerSql('webhook_outbox', 'webhook_outbox_notify', ['INSERT'], OUTBOX_NOTIFY_TRIGGER_BODY));
  }
}
