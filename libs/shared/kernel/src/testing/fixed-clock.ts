import { Clock } from '../clock.js';

/** A clock for tests: it stands still until told to move. */
export class FixedClock extends Clock {
  private current: Date;

  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    super();
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
