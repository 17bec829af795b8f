import type { Role } from '../model/role.js';
import type { UserId } from '../model/user.js';

export interface AuthTokenRecord {
  /** SHA-256 of the token: the token itself is never stored. */
  readonly digest: string;
  readonly userId: UserId;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export abstract class AuthTokenRepository {
  /**
   * Stores a token. With `keepNewest`, also revokes its user's tokens expired at `createdAt` and
   * all but the `keepNewest` newest, atomically per user: however many logins of one user run at
   * once, no more than `keepNewest` tokens stay live.
   */
  abstract add(token: AuthTokenRecord, keepNewest?: number): Promise<void>;
  /** The active owner of a live token (not expired, account active), or `null`. */
  abstract findOwner(digest: string, now: Date): Promise<{ userId: UserId; role: Role } | null>;
  abstract remove(digest: string): Promise<void>;
  abstract removeAllOf(userId: UserId): Promise<void>;
}
