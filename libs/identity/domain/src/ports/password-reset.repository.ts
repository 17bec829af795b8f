import type { UserId } from '../model/user.js';

export interface PasswordResetRecord {
  readonly digest: string;
  readonly userId: UserId;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export abstract class PasswordResetRepository {
  abstract add(reset: PasswordResetRecord): Promise<void>;
  /**
   * Marks the code used, atomically, if it is unused and not expired, and returns its user;
   * `null` otherwise. Two concurrent confirmations of one code: exactly one gets the user.
   */
  abstract consume(digest: string, now: Date): Promise<UserId | null>;
  /** Voids every unused code of a user (after a successful reset, older mails stop working). */
  abstract revokeAllOf(userId: UserId, now: Date): Promise<void>;
}
