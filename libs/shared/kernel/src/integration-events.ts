/**
 * The events a context tells the outside world about (webhook subscribers, above all). Each is
 * named `<resource>.<change>`; a subscriber chooses the names it wants.
 */
export const INTEGRATION_EVENT_TYPES = [
  'guide.created',
  'guide.edited',
  'guide.published',
  'guide.unpublished',
  'guide.deleted',
  'guide.steps_changed',
  'wiki.created',
  'wiki.edited',
  'wiki.deleted',
  'comment.created',
  'comment.edited',
  'comment.deleted',
  'user.registered',
  'badge.awarded',
] as const;

export type IntegrationEventType = (typeof INTEGRATION_EVENT_TYPES)[number];

/** A JSON value an event carries: ids and small facts, never a whole resource. */
export type IntegrationEventData = { readonly [key: string]: string | number | boolean | null | readonly (string | number)[] };

export interface IntegrationEvent {
  readonly type: IntegrationEventType;
  /**
   * The resource it is about, such as `guide:12` or `wiki:CATEGORY:iPhone`: events of one resource
   * reach each subscriber in the order they were published.
   */
  readonly resource: string;
  readonly data: IntegrationEventData;
  readonly at: Date;
}

/**
 * Publishes integration events. An adapter writes them in the caller's unit of work, so an event
 * leaves only once the change that caused it has committed (and never when it rolls back).
 */
export abstract class IntegrationEvents {
  abstract publish(event: IntegrationEvent): Promise<void>;
}
