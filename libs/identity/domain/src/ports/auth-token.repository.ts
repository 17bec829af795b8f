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
  abstract add(token: AuthTokenRecord): Promise<void>;
  /** The active owner of a live token (not expired, account active), or `null`. */
  abstract findOwner(digest: string, now: Date): Promise<{ userId: UserId; role: Role } | null>;
  abstract remove(digest: string): Promise<void>;
  abstract removeAllOf(userId: UserId): Promise<void>;
  /** Revokes all but the `keep` newest tokens of a user, and any expired ones. */
  abstract trim(userId: UserId, keep: number, now: Date): Promise<void>;
}
