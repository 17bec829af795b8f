import type { EntityManager } from '@mikro-orm/postgresql';
import { IntegrationEvents, type IntegrationEvent, type IntegrationEventType } from '@rc/shared-kernel';
import { DeliveryLog, SecretSource, Subscription, SubscriptionRepository, type DeliveryStatus, type DeliveryView, type NewSubscription } from '@rc/webhooks-domain';
import { newWebhookSecret } from './signing.js';

interface SubscriptionSqlRow {
  id: number;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  secret: string;
  created_at: Date;
  updated_at: Date;
}

function toSubscription(r: SubscriptionSqlRow): Subscription {
  return Subscription.restore({
    id: r.id,
    url: r.url,
    events: r.events as IntegrationEventType[],
    description: r.description,
    enabled: r.enabled,
    secret: r.secret,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  });
}

export class MikroOrmSubscriptions extends SubscriptionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async create(f: NewSubscription): Promise<Subscription> {
    const [row] = await this.em.execute<SubscriptionSqlRow[]>(
      'INSERT INTO webhook_subscriptions (url, events, description, enabled, secret, created_at, updated_at) VALUES (?, ARRAY(SELECT jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?, ?) RETURNING *',
      [f.url, JSON.stringify(f.events), f.description, f.enabled, f.secret, f.at, f.at],
    );
    return toSubscription(row!);
  }

  async find(id: number): Promise<Subscription | null> {
    const [row] = await this.em.execute<SubscriptionSqlRow[]>('SELECT * FROM webhook_subscriptions WHERE id = ?', [id]);
    return row ? toSubscription(row) : null;
  }

  async list(): Promise<Subscription[]> {
    return (await this.em.execute<SubscriptionSqlRow[]>('SELECT * FROM webhook_subscriptions ORDER BY id')).map(toSubscription);
  }

  async save(subscription: Subscription): Promise<void> {
    const s = subscription.state;
    await this.em.execute('UPDATE webhook_subscriptions SET url = ?, events = ARRAY(SELECT jsonb_array_elements_text(?::jsonb)), description = ?, enabled = ?, updated_at = ? WHERE id = ?', [
      s.url,
      JSON.stringify(s.events),
      s.description,
      s.enabled,
      s.updatedAt,
      s.id,
    ]);
  }

  async delete(id: number): Promise<boolean> {
    return (await this.em.execute('DELETE FROM webhook_subscriptions WHERE id = ? RETURNING 1 AS gone', [id])).length > 0;
  }
}

interface DeliverySqlRow {
  id: string;
  message_id: string;
  subscription_id: number;
  type: string;
  resource: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

const date = (d: Date | null) => (d === null ? null : new Date(d));

function toView(r: DeliverySqlRow): DeliveryView {
  return {
    id: Number(r.id),
    messageId: r.message_id,
    subscriptionId: r.subscription_id,
    eventType: r.type,
    resource: r.resource,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.status === 'pending' ? date(r.next_attempt_at) : null,
    lastAttemptAt: date(r.last_attempt_at),
    lastResponseStatus: r.last_response_status,
    lastError: r.last_error,
    deliveredAt: date(r.delivered_at),
    createdAt: new Date(r.created_at),
  };
}

const DELIVERY_COLUMNS = `d.id, d.message_id, d.subscription_id, o.type, d.resource, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at,
  d.last_response_status, d.last_error, d.delivered_at, d.created_at`;

export class MikroOrmDeliveryLog extends DeliveryLog {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(subscriptionId: number, limit: number, offset: number): Promise<DeliveryView[]> {
    const rows = await this.em.execute<DeliverySqlRow[]>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_outbox o ON o.seq = d.event_seq
       WHERE d.subscription_id = ? ORDER BY d.event_seq DESC LIMIT ? OFFSET ?`,
      [subscriptionId, limit, offset],
    );
    return rows.map(toView);
  }

  async find(subscriptionId: number, deliveryId: number): Promise<DeliveryView | null> {
    const [row] = await this.em.execute<DeliverySqlRow[]>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_outbox o ON o.seq = d.event_seq WHERE d.subscription_id = ? AND d.id = ?`,
      [subscriptionId, deliveryId],
    );
    return row ? toView(row) : null;
  }

  async retry(subscriptionId: number, deliveryId: number, at: Date): Promise<void> {
    await this.em.execute(`UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE subscription_id = ? AND id = ?`, [
      at,
      subscriptionId,
      deliveryId,
    ]);
  }
}

export class RandomSecrets extends SecretSource {
  newSecret(): string {
    return newWebhookSecret();
  }
}

/** The body every subscriber receives for an event (the same bytes at every attempt). */
export function webhookBody(event: IntegrationEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.at.toISOString(), data: event.data });
}

/**
 * Integration events go to `webhook_outbox` inside the caller's transaction (the EntityManager's
 * current one): committed with the change, or not at all. The dispatcher fans them out after. An
 * event no enabled subscription wants is not written (the same one statement either way), so a
 * service without subscribers keeps no outbox and wakes no dispatcher.
 */
export class MikroOrmIntegrationEvents extends IntegrationEvents {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async publish(event: IntegrationEvent): Promise<void> {
    await this.em.execute(
      `INSERT INTO webhook_outbox (type, resource, body, created_at)
       SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled AND ? = ANY (events))`,
      [event.type, event.resource, webhookBody(event), event.at, event.type],
    );
  }
}
