import { AdminRequiredError, UserNotFoundError } from '../identity.errors.js';
import { isAdmin, type Principal } from '../model/principal.js';
import type { TokenIssuer } from '../model/token-issuer.js';
import type { User, UserId } from '../model/user.js';
import type { UserRepository } from '../ports/user.repository.js';

/** An Admin obtains a token acting as another account, without its password. */
export class Impersonate {
  constructor(
    private readonly users: UserRepository,
    private readonly issuer: TokenIssuer,
  ) {}

  async execute(input: { actor: Principal; userId: UserId }): Promise<{ user: User; token: string }> {
    if (!isAdmin(input.actor)) throw new AdminRequiredError();
    const user = await this.users.findById(input.userId);
    if (!user?.isActive) throw new UserNotFoundError();
    return { user, token: await this.issuer.issue(user.id) };
  }
}
