import { PasswordHashingBusyError } from '../identity.errors.js';
import { PasswordHasher } from '../ports/secrets.js';

export interface HashingBounds {
  /** Hashes computed at once: each holds the hash's memory cost (argon2id: 19 MiB by default). */
  readonly concurrency: number;
  /** Hashes waiting for a slot; one more is refused with PasswordHashingBusyError. */
  readonly maxWaiting: number;
}

/**
 * Runs at most `concurrency` hashes or verifications of the hasher it wraps at once, the others
 * waiting in arrival order (at most `maxWaiting` of them). A memory-hard hash holds its memory
 * cost while it runs, so the process's memory for hashing is bounded by `concurrency` × that cost
 * whatever the number of logins in flight; and with one hash per core, cores are not shared
 * between hashes, which finish sooner. The cost of each hash is the wrapped hasher's, unchanged.
 */
export class BoundedPasswordHasher extends PasswordHasher {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly inner: PasswordHasher,
    private readonly bounds: HashingBounds,
  ) {
    super();
    if (!(bounds.concurrency >= 1) || !(bounds.maxWaiting >= 0)) throw new Error('BoundedPasswordHasher: concurrency must be at least 1 and maxWaiting at least 0');
  }

  hash(password: string): Promise<string> {
    return this.bounded(() => this.inner.hash(password));
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.bounded(() => this.inner.verify(hash, password));
  }

  /** Hashes running now and waiting now (for metrics and tests). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.bounds.concurrency) {
      if (this.waiting.length >= this.bounds.maxWaiting) throw new PasswordHashingBusyError();
      // The slot is handed over by the hash that ends (running stays counted for this one).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
