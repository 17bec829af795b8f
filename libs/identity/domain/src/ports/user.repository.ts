import type { Page } from '@rc/shared-kernel';
import type { Email } from '../model/email.js';
import type { User, UserCard, UserId } from '../model/user.js';

/** Which active accounts a user list shows, and in which order of `userid`. */
export interface UserListFilter {
  /** Only accounts that joined at this instant or later. */
  readonly joinedSince?: Date;
  readonly order: 'ASC' | 'DESC';
}

export abstract class UserRepository {
  /** Reserves the id of a new account. */
  abstract nextId(): Promise<UserId>;
  abstract findById(id: UserId): Promise<User | null>;
  /**
   * Reads the account as it is now and locks it until the unit of work ends, so that concurrent
   * read-change-save sequences on one account run one after the other (call inside `UnitOfWork.run`).
   */
  abstract findByIdForUpdate(id: UserId): Promise<User | null>;
  /**
   * What authors and members show of these accounts, for the active ones among them (unknown and
   * disabled ids are left out), in one query. Read only: nothing here can be changed and saved.
   */
  abstract findCards(ids: readonly UserId[]): Promise<UserCard[]>;
  /** One page of active accounts, ordered by id, in one query. */
  abstract listActive(filter: UserListFilter, page: Page): Promise<User[]>;
  abstract findByEmail(email: Email): Promise<User | null>;
  /** Which of the two unique keys already belong to an account (unique_username case-insensitively). */
  abstract findTaken(email: Email, uniqueUsername: string): Promise<{ email: boolean; uniqueUsername: boolean }>;
  /** Inserts or updates. A concurrent duplicate email or unique_username fails with InvalidAccountDataError. */
  abstract save(user: User): Promise<void>;
}
