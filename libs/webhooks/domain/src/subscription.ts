import { INTEGRATION_EVENT_TYPES, type IntegrationEventType, type Violation } from '@rc/shared-kernel';
import { InvalidSubscriptionError } from './webhooks.errors.js';

export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;

/** What an administrator registers or changes. */
export interface SubscriptionInput {
  readonly url?: unknown;
  readonly events?: unknown;
  readonly description?: unknown;
  readonly enabled?: unknown;
}

export interface SubscriptionState {
  readonly id: number;
  readonly url: string;
  readonly events: readonly IntegrationEventType[];
  readonly description: string;
  readonly enabled: boolean;
  /** `whsec_<base64>`: shown once, when the subscription is created. */
  readonly secret: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A target URL as given: a non-empty string of bounded length (the TargetPolicy checks the rest). */
export function readTargetUrl(value: unknown, violations: Violation[]): string | null {
  if (typeof value !== 'string' || !value.trim()) {
    violations.push({ field: 'url', message: 'url is required: an http or https URL' });
    return null;
  }
  if (value.length > MAX_URL_LENGTH) {
    violations.push({ field: 'url', message: `url must be at most ${MAX_URL_LENGTH} characters` });
    return null;
  }
  return value.trim();
}

/** The event names, each known, without repeats (in the catalogue's order). */
export function readEvents(value: unknown, violations: Violation[]): IntegrationEventType[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.some((e) => typeof e !== 'string')) {
    violations.push({ field: 'events', message: 'events must be a non-empty list of event names' });
    return null;
  }
  const unknown = value.filter((e) => !(INTEGRATION_EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length) {
    violations.push({ field: 'events', message: `unknown event: ${unknown.slice(0, 5).join(', ')} (known: ${INTEGRATION_EVENT_TYPES.join(', ')})` });
    return null;
  }
  return INTEGRATION_EVENT_TYPES.filter((t) => value.includes(t));
}

function readDescription(value: unknown, violations: Violation[]): string | null {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || value.length > MAX_DESCRIPTION_LENGTH) {
    violations.push({ field: 'description', message: `description must be a string of at most ${MAX_DESCRIPTION_LENGTH} characters` });
    return null;
  }
  return value;
}

function readEnabled(value: unknown, violations: Violation[]): boolean | null {
  if (typeof value !== 'boolean') {
    violations.push({ field: 'enabled', message: 'enabled must be true or false' });
    return null;
  }
  return value;
}

/** A consumer's subscription: where the events it chose are sent, signed with its secret. */
export class Subscription {
  private constructor(private current: SubscriptionState) {}

  static restore(state: SubscriptionState): Subscription {
    return new Subscription(state);
  }

  /** Checks a new subscription's input; its target still has to pass the TargetPolicy. */
  static readNew(input: SubscriptionInput): { url: string; events: IntegrationEventType[]; description: string; enabled: boolean } {
    const violations: Violation[] = [];
    const target = readTargetUrl(input.url, violations);
    const events = readEvents(input.events, violations);
    const description = readDescription(input.description, violations);
    const enabled = input.enabled === undefined ? true : readEnabled(input.enabled, violations);
    if (violations.length) throw new InvalidSubscriptionError(violations);
    return { url: target!, events: events!, description: description!, enabled: enabled! };
  }

  get state(): SubscriptionState {
    return this.current;
  }

  /** Applies the fields present; `url` is the new target as the TargetPolicy accepted it. */
  change(input: SubscriptionInput, at: Date): void {
    const violations: Violation[] = [];
    const target = input.url === undefined ? null : readTargetUrl(input.url, violations);
    const events = input.events === undefined ? null : readEvents(input.events, violations);
    const description = input.description === undefined ? null : readDescription(input.description, violations);
    const enabled = input.enabled === undefined ? null : readEnabled(input.enabled, violations);
    if (violations.length) throw new InvalidSubscriptionError(violations);
    this.current = {
      ...this.current,
      url: target ?? this.current.url,
      events: events ?? this.current.events,
      description: description ?? this.current.description,
      enabled: enabled ?? this.current.enabled,
      updatedAt: at,
    };
  }

  wants(type: IntegrationEventType): boolean {
    return this.current.enabled && this.current.events.includes(type);
  }
}
