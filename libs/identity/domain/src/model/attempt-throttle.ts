import type { Clock } from '@rc/shared-kernel';
import { TooManyAttemptsError } from '../identity.errors.js';
import type { AttemptKind, AttemptLog } from '../ports/attempt-log.js';

export interface AttemptLimit {
  readonly kind: AttemptKind;
  readonly key: string;
  readonly max: number;
}

/** Refuses an action once `max` attempts of a kind and key fall within the sliding window. */
export class AttemptThrottle {
  constructor(
    private readonly log: AttemptLog,
    private readonly clock: Clock,
    private readonly windowSeconds: number,
  ) {}

  async check(limits: readonly AttemptLimit[]): Promise<void> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - this.windowSeconds * 1000);
    let retryAfter = 0;
    for (const limit of limits) {
      const { count, oldest } = await this.log.countSince(limit.kind, limit.key, since);
      if (count >= limit.max && oldest) {
        const freedAt = oldest.getTime() + this.windowSeconds * 1000;
        retryAfter = Math.max(retryAfter, Math.ceil((freedAt - now.getTime()) / 1000));
      }
    }
    if (retryAfter > 0) throw new TooManyAttemptsError(retryAfter);
  }

  async record(limits: readonly AttemptLimit[]): Promise<void> {
    const now = this.clock.now();
    for (const limit of limits) await this.log.record(limit.kind, limit.key, now);
  }

  /** Forgets the attempts of one kind and key (a successful login clears its email's failures). */
  async clear(limit: Pick<AttemptLimit, 'kind' | 'key'>): Promise<void> {
    await this.log.clear(limit.kind, limit.key);
  }
}
