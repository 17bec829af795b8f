import type { Email } from '../model/email.js';
import type { User, UserId } from '../model/user.js';

export abstract class UserRepository {
  /** Reserves the id of a new account. */
  abstract nextId(): Promise<UserId>;
  abstract findById(id: UserId): Promise<User | null>;
  /** Several accounts in one query (missing ids are left out). */
  abstract findMany(ids: readonly UserId[]): Promise<User[]>;
  abstract findByEmail(email: Email): Promise<User | null>;
  /** Which of the two unique keys already belong to an account (unique_username case-insensitively). */
  abstract findTaken(email: Email, uniqueUsername: string): Promise<{ email: boolean; uniqueUsername: boolean }>;
  /** Inserts or updates. A concurrent duplicate email or unique_username fails with InvalidAccountDataError. */
  abstract save(user: User): Promise<void>;
}
