import type { Clock, UnitOfWork } from '@rc/shared-kernel';
import { InvalidAccountDataError, UserNotFoundError } from '../identity.errors.js';
import { parseEmail, type Email } from '../model/email.js';
import { checkPassword } from '../model/password-policy.js';
import type { Role } from '../model/role.js';
import { normaliseDisplayName, User } from '../model/user.js';
import type { AuthTokenRepository } from '../ports/auth-token.repository.js';
import type { PasswordHasher } from '../ports/secrets.js';
import type { UserRepository } from '../ports/user.repository.js';

/**
 * Makes sure an active Admin account with these credentials exists: creates it, or sets the
 * password and role of the existing account (re-enabling it if it was disabled). A changed
 * password signs the account out everywhere, as a password reset does. Running it again changes nothing more (operators' start-up
 * configuration and the CLI use it).
 */
export class EnsureAdmin {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: AuthTokenRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(input: { email: unknown; password: unknown; username?: string }): Promise<{ user: User; created: boolean }> {
    const email = parseEmail(input.email);
    const problem = checkPassword(input.password);
    if (!email || problem) {
      throw new InvalidAccountDataError([
        ...(email ? [] : [{ field: 'email', message: 'Email address is not valid' }]),
        ...(problem ? [{ field: 'password', message: problem }] : []),
      ]);
    }
    const password = input.password as string;
    return this.uow.run(async () => {
      const existing = await this.users.findByEmail(email);
      if (existing) {
        if (!(await this.hasher.verify(existing.passwordHash, password))) {
          existing.changePassword(await this.hasher.hash(password));
          await this.tokens.removeAllOf(existing.id);
        }
        existing.assignRole('Admin');
        existing.activate();
        await this.users.save(existing);
        return { user: existing, created: false };
      }
      const user = User.register({
        id: await this.users.nextId(),
        email,
        username: normaliseDisplayName(input.username) ?? 'Administrator',
        uniqueUsername: await this.freeUniqueUsername(email),
        passwordHash: await this.hasher.hash(password),
        role: 'Admin',
        joinedAt: this.clock.now(),
      });
      await this.users.save(user);
      return { user, created: true };
    });
  }

  private async freeUniqueUsername(email: Email): Promise<string> {
    const base = (email.slice(0, email.indexOf('@')).replace(/[^A-Za-z0-9_-]/g, '').replace(/^[_-]+/, '') + 'admin').slice(0, 24);
    for (let n = 0; ; n++) {
      const candidate = n === 0 ? base : `${base}${n}`;
      if (!(await this.users.findTaken(email, candidate)).uniqueUsername) return candidate;
    }
  }
}

/** Gives an account a role (operators' CLI). */
export class SetUserRole {
  constructor(private readonly users: UserRepository) {}

  async execute(input: { email: unknown; role: Role }): Promise<User> {
    const email = parseEmail(input.email);
    const user = email ? await this.users.findByEmail(email) : null;
    if (!user) throw new UserNotFoundError();
    user.assignRole(input.role);
    await this.users.save(user);
    return user;
  }
}
