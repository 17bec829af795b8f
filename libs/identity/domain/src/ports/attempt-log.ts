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

  /**
   * Records one attempt of each kind and key at once, all visible to every other request when it
   * returns; the ids in the order given. A log in a database does it in one statement.
   */
  async recordAll(keys: readonly AttemptKey[], at: Date): Promise<string[]> {
    const ids: string[] = [];
    for (const { kind, key } of keys) ids.push(await this.record(kind, key, at));
    return ids;
  }

  /** `countSince` of each kind and key, in the order given (one statement in a database). */
  async countAllSince(keys: readonly AttemptKey[], since: Date): Promise<{ count: number; oldest: Date | null }[]> {
    const counts: { count: number; oldest: Date | null }[] = [];
    for (const { kind, key } of keys) counts.push(await this.countSince(kind, key, since));
    return counts;
  }

  /** `remove(ids)` and `clear` of each kind and key given, together (one statement in a database). */
  async removeAndClear(ids: readonly string[], clearing: readonly AttemptKey[]): Promise<void> {
    await this.remove(ids);
    for (const { kind, key } of clearing) await this.clear(kind, key);
  }
}

export interface AttemptKey {
  readonly kind: AttemptKind;
  readonly key: string;
}
