import { UserNotFoundError } from '../identity.errors.js';
import type { User, UserCard, UserId } from '../model/user.js';
import type { UserRepository } from '../ports/user.repository.js';

/** What authors and members show of active accounts, by id (one query, whatever the count). */
export class GetUsers {
  constructor(private readonly users: UserRepository) {}

  async execute(ids: readonly UserId[]): Promise<Map<number, UserCard>> {
    const cards = await this.users.findCards(ids);
    return new Map(cards.map((u) => [u.id, u]));
  }
}

/** An active account by id; a disabled or unknown one is not found. */
export class GetUser {
  constructor(private readonly users: UserRepository) {}

  async execute(userId: UserId): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user?.isActive) throw new UserNotFoundError();
    return user;
  }
}
