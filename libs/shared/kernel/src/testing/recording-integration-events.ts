import { IntegrationEvents, type IntegrationEvent } from '../integration-events.js';

/** For domain unit tests: every published event, in order. */
export class RecordingIntegrationEvents extends IntegrationEvents {
  readonly published: IntegrationEvent[] = [];

  async publish(event: IntegrationEvent): Promise<void> {
    this.published.push(event);
  }

  /** The published events' types, in order. */
  types(): string[] {
    return this.published.map((e) => e.type);
  }
}
