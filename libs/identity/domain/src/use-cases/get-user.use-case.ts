import { UserNotFoundError } from '../identity.errors.js';
import type { User, UserId } from '../model/user.js';
import type { UserRepository } from '../ports/user.repository.js';

/** Active accounts by id, for showing authors and members (one query, whatever the count). */
export class GetUsers {
  constructor(private readonly users: UserRepository) {}

  async execute(ids: readonly UserId[]): Promise<Map<number, User>> {
    const users = await this.users.findMany(ids);
    return new Map(users.filter((u) => u.isActive).map((u) => [u.id, u]));
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
