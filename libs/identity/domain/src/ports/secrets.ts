/** Random secrets (tokens, reset codes) and the one-way digest stored in their place. */
export abstract class Secrets {
  /** A new secret with at least 128 bits of entropy, safe in a header and a URL. */
  abstract generate(): string;
  /** A deterministic one-way digest (SHA-256, hex) to store and look secrets up by. */
  abstract digest(secret: string): string;
}

/** Memory-hard password hashing. */
export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  abstract verify(hash: string, password: string): Promise<boolean>;
}
