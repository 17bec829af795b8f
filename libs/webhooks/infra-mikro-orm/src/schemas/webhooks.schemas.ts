import { EntitySchema } from '@mikro-orm/core';

// The tables as MikroORM maps them (the migrations create them; a test proves they agree). The
// repositories write them with SQL.

export interface WebhookSubscriptionRow {
  id: number;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  secret: string;
  createdAt: Date;
  updatedAt: Date;
}

export const WebhookSubscriptionRowSchema = new EntitySchema<WebhookSubscriptionRow>({
  name: 'WebhookSubscriptionRow',
  tableName: 'webhook_subscriptions',
  properties: {
    id: { type: 'integer', primary: true },
    url: { type: 'text' },
    events: { type: 'text[]' },
    description: { type: 'text' },
    enabled: { type: 'boolean' },
    secret: { type: 'text' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    updatedAt: { type: 'datetime', fieldName: 'updated_at' },
  },
});

export interface WebhookOutboxRow {
  seq: string;
  type: string;
  resource: string;
  body: string;
  createdAt: Date;
  dispatchedAt: Date | null;
}

/** A committed outbox row wakes the dispatchers (NOTIFY is sent at commit, once per transaction). */
export const OUTBOX_NOTIFY_TRIGGER_BODY = `perform pg_notify('webhook_events', ''); return null;`;

export const WebhookOutboxRowSchema = new EntitySchema<WebhookOutboxRow>({
  name: 'WebhookOutboxRow',
  tableName: 'webhook_outbox',
  triggers: [{ name: 'webhook_outbox_notify', timing: 'after', events: ['insert'], forEach: 'row', body: OUTBOX_NOTIFY_TRIGGER_BODY }],
  properties: {
    seq: { type: 'bigint', primary: true },
    type: { type: 'string', length: 64 },
    resource: { type: 'string', length: 512 },
    body: { type: 'text' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    dispatchedAt: { type: 'datetime', nullable: true, fieldName: 'dispatched_at' },
  },
});

export interface WebhookDeliveryRow {
  id: string;
  messageId: string;
  subscriptionId: number;
  eventSeq: string;
  resource: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export const WebhookDeliveryRowSchema = new EntitySchema<WebhookDeliveryRow>({
  name: 'WebhookDeliveryRow',
  tableName: 'webhook_deliveries',
  properties: {
    id: { type: 'bigint', primary: true },
    messageId: { type: 'uuid', fieldName: 'message_id', unique: 'webhook_deliveries_message_key' },
    subscriptionId: { type: 'integer', fieldName: 'subscription_id' },
    eventSeq: { type: 'bigint', fieldName: 'event_seq' },
    resource: { type: 'string', length: 512 },
    status: { type: 'string', length: 16 },
    attempts: { type: 'integer' },
    nextAttemptAt: { type: 'datetime', nullable: true, fieldName: 'next_attempt_at' },
    lastAttemptAt: { type: 'datetime', nullable: true, fieldName: 'last_attempt_at' },
    lastResponseStatus: { type: 'integer', nullable: true, fieldName: 'last_response_status' },
    lastError: { type: 'text', nullable: true, fieldName: 'last_error' },
    deliveredAt: { type: 'datetime', nullable: true, fieldName: 'delivered_at' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
  },
});

export const webhooksSchemas = [WebhookSubscriptionRowSchema, WebhookOutboxRowSchema, WebhookDeliveryRowSchema];
