import { PasswordHasher } from '../ports/secrets.js';

/** `hashed:<password>`; counts calls so that a test can see a hash was verified. */
export class FakePasswordHasher extends PasswordHasher {
  hashCalls = 0;
  verifyCalls = 0;
  /** The hashes `verify` was given, in order. */
  readonly verifiedHashes: string[] = [];

  async hash(password: string): Promise<string> {
    this.hashCalls += 1;
    return `hashed:${password}`;
  }

  async verify(hash: string, password: string): Promise<boolean> {
    this.verifyCalls += 1;
    this.verifiedHashes.push(hash);
    return hash === `hashed:${password}`;
  }
}
