import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (an ambient const enum, which isolated modules cannot read). */
const ARGON2ID = 2 as Algorithm;
import { availableParallelism } from 'node:os';
import { PasswordHasher, type HashingBounds } from '@rc/identity-domain';

export interface Argon2Parameters {
  /** KiB of memory per hash. */
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/** OWASP's recommended argon2id setting: 19 MiB, 2 passes, 1 lane. */
export const DEFAULT_ARGON2: Argon2Parameters = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** argon2id, memory-hard; the parameters travel inside each hash, so they can be raised later. */
export class Argon2PasswordHasher extends PasswordHasher {
  constructor(private readonly params: Argon2Parameters = DEFAULT_ARGON2) {
    super();
  }

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: ARGON2ID, ...this.params });
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false; // a malformed stored hash never matches
    }
  }
}

/**
 * One hash at a time per core, and never the whole libuv threadpool (argon2 runs on it, as do
 * file reads, DNS lookups and zlib, which must not wait behind a burst of logins): at most
 * UV_THREADPOOL_SIZE − 1 (4 − 1 by default). Up to 64 more wait per running one (under a second at
 * the default cost) before logins are answered 503 with Retry-After.
 */
export function defaultHashingBounds(): HashingBounds {
  const threadpool = Number(process.env['UV_THREADPOOL_SIZE']) || 4;
  const concurrency = Math.max(1, Math.min(availableParallelism(), threadpool - 1));
  return { concurrency, maxWaiting: 64 * concurrency };
}
