/**
 * Kinds of attempts that are counted to slow down guessing. Keys are an email, a client address,
 * or for `login-pair` the client address and the email separated by a space.
 */
export type AttemptKind = 'login-pair' | 'login-email' | 'login-address' | 'reset-email' | 'reset-address' | 'register-address';

/**
 * A shared log of attempts (kept in the database, so that every API instance sees the same
 * counts). The rules on how many are allowed live in the domain's throttle.
 */
export abstract class AttemptLog {
  /**
   * How many attempts of this kind and key happened after `since` (strictly), and when the oldest
   * of them was. Sees every attempt recorded so far, including those of concurrent requests.
   */
  abstract countSince(kind: AttemptKind, key: string, since: Date): Promise<{ count: number; oldest: Date | null }>;
  /** Records an attempt at once (visible to every other request) and returns its id. */
  abstract record(kind: AttemptKind, key: string, at: Date): Promise<string>;
  abstract remove(ids: readonly string[]): Promise<void>;
  abstract clear(kind: AttemptKind, key: string): Promise<void>;
}
