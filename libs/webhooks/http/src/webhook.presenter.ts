import type { DeliveryView, Subscription } from '@rc/webhooks-domain';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const maybe = (d: Date | null) => (d === null ? null : seconds(d));

export function presentWebhook(s: Subscription) {
  const v = s.state;
  return { webhookid: v.id, url: v.url, events: [...v.events], description: v.description, enabled: v.enabled, created_date: seconds(v.createdAt), modified_date: seconds(v.updatedAt) };
}

export function presentDelivery(d: DeliveryView) {
  return {
    deliveryid: d.id,
    webhook_id: d.messageId,
    event: d.eventType,
    resource: d.resource,
    status: d.status,
    attempts: d.attempts,
    next_attempt_date: maybe(d.nextAttemptAt),
    last_attempt_date: maybe(d.lastAttemptAt),
    last_response_status: d.lastResponseStatus,
    last_error: d.lastError,
    delivered_date: maybe(d.deliveredAt),
    created_date: seconds(d.createdAt),
  };
}
