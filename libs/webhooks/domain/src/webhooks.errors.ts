import { NotFoundError, RuleViolationError, type Violation } from '@rc/shared-kernel';

export class InvalidSubscriptionError extends RuleViolationError {
  readonly code = 'WEBHOOKS.INVALID_SUBSCRIPTION';
  constructor(violations: readonly Violation[]) {
    super(violations.map((v) => v.message).join('; '), violations);
  }
}

export class SubscriptionNotFoundError extends NotFoundError {
  readonly code = 'WEBHOOKS.SUBSCRIPTION_NOT_FOUND';
  constructor() {
    super('Webhook not found');
  }
}

export class DeliveryNotFoundError extends NotFoundError {
  readonly code = 'WEBHOOKS.DELIVERY_NOT_FOUND';
  constructor() {
    super('Delivery not found');
  }
}
