import { UserNotFoundError } from '../identity.errors.js';
import type { User, UserId } from '../model/user.js';
import type { UserRepository } from '../ports/user.repository.js';

/** An active account by id; a disabled or unknown one is not found. */
export class GetUser {
  constructor(private readonly users: UserRepository) {}

  async execute(userId: UserId): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user?.isActive) throw new UserNotFoundError();
    return user;
  }
}
