import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (an ambient const enum, which isolated modules cannot read). */
const ARGON2ID = 2 as Algorithm;
import { PasswordHasher } from '@rc/identity-domain';

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
