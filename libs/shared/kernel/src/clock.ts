/** Time is passed in, never read from the environment inside the domain. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** Whole UNIX seconds, the API's date format. */
export function toUnixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
