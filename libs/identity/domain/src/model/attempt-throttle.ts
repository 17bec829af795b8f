import type { Clock } from '@rc/shared-kernel';
import { TooManyAttemptsError } from '../identity.errors.js';
import type { AttemptKey, AttemptKind, AttemptLog } from '../ports/attempt-log.js';

export interface AttemptLimit {
  readonly kind: AttemptKind;
  readonly key: string;
  readonly max: number;
}

/** An attempt that was let through; its records stay (they count) unless forgotten. */
export interface Attempt {
  /**
   * Removes this attempt's own records (a successful login does not count against the limits),
   * and with them every attempt of the kinds and keys in `clearing` (a successful login clears its
   * email's failures from its address), in one call to the log.
   */
  forget(clearing?: readonly AttemptKey[]): Promise<void>;
}

/**
 * Allows at most `max` attempts of a kind and key within the sliding window. Each attempt is
 * recorded before the counts are read, so of any number of concurrent attempts (on any instance
 * sharing the log) at most `max` get through: a check followed by a later record would let a
 * whole burst pass between the two. The records of all limits are written in one call to the log,
 * and their counts read in one more, after it.
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
    const ids = await this.log.recordAll(limits, now);
    const counts = await this.log.countAllSince(limits, since);
    let retryAfter = 0;
    for (const [i, limit] of limits.entries()) {
      const { count, oldest } = counts[i]!;
      if (count > limit.max && oldest) {
        const freedAt = oldest.getTime() + this.windowSeconds * 1000;
        retryAfter = Math.max(retryAfter, Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000)));
      }
    }
    if (retryAfter > 0) {
      await this.log.remove(ids);
      throw new TooManyAttemptsError(retryAfter);
    }
    return { forget: (clearing = []) => this.log.removeAndClear(ids, clearing) };
  }

  /** Forgets every attempt of one kind and key (a successful login clears its email's failures). */
  async clear(limit: Pick<AttemptLimit, 'kind' | 'key'>): Promise<void> {
    await this.log.clear(limit.kind, limit.key);
  }
}
