import type { IntegrationEventType } from '@rc/shared-kernel';
import type { DeliveryView } from './delivery.js';
import type { Subscription } from './subscription.js';

export interface NewSubscription {
  readonly url: string;
  readonly events: readonly IntegrationEventType[];
  readonly description: string;
  readonly enabled: boolean;
  readonly secret: string;
  readonly at: Date;
}

export abstract class SubscriptionRepository {
  abstract create(fields: NewSubscription): Promise<Subscription>;
  abstract find(id: number): Promise<Subscription | null>;
  /** Every subscription, by id. */
  abstract list(): Promise<Subscription[]>;
  abstract save(subscription: Subscription): Promise<void>;
  /** Removes it and its deliveries; `false` when there was none. */
  abstract delete(id: number): Promise<boolean>;
}

export abstract class DeliveryLog {
  /** A subscription's deliveries, newest first. */
  abstract list(subscriptionId: number, limit: number, offset: number): Promise<DeliveryView[]>;
  abstract find(subscriptionId: number, deliveryId: number): Promise<DeliveryView | null>;
  /** Makes the delivery pending again, due now, with its attempts counted afresh. */
  abstract retry(subscriptionId: number, deliveryId: number, at: Date): Promise<void>;
}

/**
 * Where deliveries may go: an http or https URL without credentials or fragment, whose host is not
 * a private or loopback address (nor a name resolving to one). Answers the URL in its normal form,
 * or why it is refused.
 */
export abstract class TargetPolicy {
  abstract check(url: string): Promise<{ readonly url: string } | { readonly refusal: string }>;
}

/** New signing secrets, `whsec_<base64 of random bytes>`. */
export abstract class SecretSource {
  abstract newSecret(): string;
}
