import type { Clock } from '@rc/shared-kernel';
import { TooManyAttemptsError } from '../identity.errors.js';
import type { AttemptKind, AttemptLog } from '../ports/attempt-log.js';

export interface AttemptLimit {
  readonly kind: AttemptKind;
  readonly key: string;
  readonly max: number;
}

/** An attempt that was let through; its records stay (they count) unless forgotten. */
export interface Attempt {
  /** Removes this attempt's own records (a successful login does not count against the limits). */
  forget(): Promise<void>;
}

/**
 * Allows at most `max` attempts of a kind and key within the sliding window. Each attempt is
 * recorded before the counts are read, so of any number of concurrent attempts (on any instance
 * sharing the log) at most `max` get through: a check followed by a later record would let a
 * whole burst pass between the two.
 */
export class AttemptThrottle {
  constructor(
    private readonly log: AttemptLog,
    private readonly clock: Clock,
    private readonly windowSeconds: number,
  ) {}

  /** Records the attempt and lets it through, or withdraws it and throws TooManyAttemptsError. */
  async attempt(limits: readonly AttemptLimit[]): Promise<Attempt> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - this.windowSeconds * 1000);
    const ids: string[] = [];
    for (const limit of limits) ids.push(await this.log.record(limit.kind, limit.key, now));
    let retryAfter = 0;
    for (const limit of limits) {
      const { count, oldest } = await this.log.countSince(limit.kind, limit.key, since);
      if (count > limit.max && oldest) {
        const freedAt = oldest.getTime() + this.windowSeconds * 1000;
        retryAfter = Math.max(retryAfter, Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000)));
      }
    }
    const forget = () => this.log.remove(ids);
    if (retryAfter > 0) {
      await forget();
      throw new TooManyAttemptsError(retryAfter);
    }
    return { forget };
  }

  /** Forgets every attempt of one kind and key (a successful login clears its email's failures). */
  async clear(limit: Pick<AttemptLimit, 'kind' | 'key'>): Promise<void> {
    await this.log.clear(limit.kind, limit.key);
  }
}
