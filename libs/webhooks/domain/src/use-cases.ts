import type { Clock, UnitOfWork, Violation } from '@rc/shared-kernel';
import type { DeliveryView } from './delivery.js';
import type { DeliveryLog, SecretSource, SubscriptionRepository, TargetPolicy } from './ports.js';
import { readTargetUrl, Subscription, type SubscriptionInput } from './subscription.js';
import { DeliveryNotFoundError, InvalidSubscriptionError, SubscriptionNotFoundError } from './webhooks.errors.js';

export interface WebhookDeps {
  readonly subscriptions: SubscriptionRepository;
  readonly deliveries: DeliveryLog;
  readonly targets: TargetPolicy;
  readonly secrets: SecretSource;
  readonly clock: Clock;
  readonly uow: UnitOfWork;
}

/** A delivery id from a path: a positive integer (deliveries outnumber other ids: up to 15 digits); null names none. */
export function parseDeliveryId(value: string): number | null {
  return /^[1-9][0-9]{0,14}$/.test(value) ? Number(value) : null;
}

async function checkTarget(targets: TargetPolicy, url: string): Promise<string> {
  const checked = await targets.check(url);
  if ('refusal' in checked) throw new InvalidSubscriptionError([{ field: 'url', message: checked.refusal }]);
  return checked.url;
}

export class RegisterSubscription {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(input: SubscriptionInput): Promise<Subscription> {
    const fields = Subscription.readNew(input);
    const url = await checkTarget(this.deps.targets, fields.url);
    return this.deps.subscriptions.create({ ...fields, url, secret: this.deps.secrets.newSecret(), at: this.deps.clock.now() });
  }
}

export class ListSubscriptions {
  constructor(private readonly deps: WebhookDeps) {}

  execute(): Promise<Subscription[]> {
    return this.deps.subscriptions.list();
  }
}

export class GetSubscription {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(id: number): Promise<Subscription> {
    const found = await this.deps.subscriptions.find(id);
    if (!found) throw new SubscriptionNotFoundError();
    return found;
  }
}

export class ChangeSubscription {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(id: number, input: SubscriptionInput): Promise<Subscription> {
    return this.deps.uow.run(async () => {
      const found = await this.deps.subscriptions.find(id);
      if (!found) throw new SubscriptionNotFoundError();
      // The new target is checked before anything changes.
      let url: string | undefined;
      if (input.url !== undefined) {
        const violations: Violation[] = [];
        const given = readTargetUrl(input.url, violations);
        if (given === null) throw new InvalidSubscriptionError(violations);
        url = await checkTarget(this.deps.targets, given);
      }
      found.change({ ...input, url }, this.deps.clock.now());
      await this.deps.subscriptions.save(found);
      return found;
    });
  }
}

export class DeleteSubscription {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(id: number): Promise<void> {
    if (!(await this.deps.subscriptions.delete(id))) throw new SubscriptionNotFoundError();
  }
}

export class ListDeliveries {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(subscriptionId: number, limit: number, offset: number): Promise<DeliveryView[]> {
    if (!(await this.deps.subscriptions.find(subscriptionId))) throw new SubscriptionNotFoundError();
    return this.deps.deliveries.list(subscriptionId, limit, offset);
  }
}

export class RetryDelivery {
  constructor(private readonly deps: WebhookDeps) {}

  async execute(subscriptionId: number, rawDeliveryId: string): Promise<DeliveryView> {
    const deliveryId = parseDeliveryId(rawDeliveryId);
    if (deliveryId === null) throw new DeliveryNotFoundError();
    return this.deps.uow.run(async () => {
      if (!(await this.deps.subscriptions.find(subscriptionId))) throw new SubscriptionNotFoundError();
      if (!(await this.deps.deliveries.find(subscriptionId, deliveryId))) throw new DeliveryNotFoundError();
      await this.deps.deliveries.retry(subscriptionId, deliveryId, this.deps.clock.now());
      return (await this.deps.deliveries.find(subscriptionId, deliveryId))!;
    });
  }
}
