import type { GuideEvent } from '@rc/guides-contracts';
import { GuideEventOutbox } from '../ports/guide-activity.js';

/** Keeps every published event, in order, instead of writing it to an outbox table. */
export class RecordingOutbox extends GuideEventOutbox {
  readonly events: GuideEvent[] = [];

  async publish(event: GuideEvent): Promise<void> {
    this.events.push({ ...event });
  }

  /** The events of one type, in order. */
  ofType<T extends GuideEvent['type']>(type: T): Extract<GuideEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<GuideEvent, { type: T }> => e.type === type);
  }

  /** The types of every event, in order. */
  get types(): GuideEvent['type'][] {
    return this.events.map((e) => e.type);
  }

  clear(): void {
    this.events.length = 0;
  }
}
