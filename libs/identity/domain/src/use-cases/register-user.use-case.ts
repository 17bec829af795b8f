import type { Clock, IntegrationEvents, UnitOfWork, Violation } from '@rc/shared-kernel';
import { AdminRequiredError, AuthenticationRequiredError, InvalidAccountDataError } from '../identity.errors.js';
import type { IdentityPolicy } from '../identity-policy.js';
import type { AttemptThrottle } from '../model/attempt-throttle.js';
import { isAdmin, type Principal } from '../model/principal.js';
import type { TokenIssuer } from '../model/token-issuer.js';
import { User, type Registration } from '../model/user.js';
import type { PasswordHasher } from '../ports/secrets.js';
import type { UserRepository } from '../ports/user.repository.js';

export interface RegisterUserInput {
  readonly registration: Registration;
  readonly actor: Principal | null;
  /**
   * The caller's network address, for throttling. Absent for the operator's own tools (demo data,
   * command line), which are not throttled.
   */
  readonly clientAddress?: string;
}

/**
 * Creates an account and logs it in. With public registration off, only an Admin may do it.
 * Requests from one client address are limited (every request counts, whatever its outcome, so
 * that neither mass sign-ups nor probing which emails have an account go fast); an Admin's are not.
 */
export class RegisterUser {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly issuer: TokenIssuer,
    private readonly throttle: AttemptThrottle,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly policy: Pick<IdentityPolicy, 'publicRegistration' | 'throttle'>,
    /** Registrations are published to the outside world (webhooks) in the same unit of work. */
    private readonly events: IntegrationEvents,
  ) {}

  async execute(input: RegisterUserInput): Promise<{ user: User; token: string }> {
    if (!this.policy.publicRegistration) {
      if (!input.actor) throw new AuthenticationRequiredError();
      if (!isAdmin(input.actor)) throw new AdminRequiredError();
    }
    if (input.clientAddress !== undefined && !(input.actor && isAdmin(input.actor))) {
      await this.throttle.attempt([{ kind: 'register-address', key: input.clientAddress, max: this.policy.throttle.registrationsPerAddress }]);
    }
    const account = User.validateRegistration(input.registration);
    const taken = await this.users.findTaken(account.email, account.uniqueUsername);
    const violations: Violation[] = [];
    if (taken.email) violations.push({ field: 'email', message: 'An account with this email address already exists' });
    if (taken.uniqueUsername) violations.push({ field: 'unique_username', message: 'This unique_username is taken' });
    if (violations.length) throw new InvalidAccountDataError(violations);

    const passwordHash = await this.hasher.hash(account.password);
    return this.uow.run(async () => {
      const user = User.register({
        id: await this.users.nextId(),
        email: account.email,
        username: account.username,
        uniqueUsername: account.uniqueUsername,
        passwordHash,
        joinedAt: this.clock.now(),
      });
      await this.users.save(user);
      await this.events.publish({ type: 'user.registered', resource: `user:${user.id}`, data: { userid: user.id, unique_username: account.uniqueUsername }, at: this.clock.now() });
      return { user, token: await this.issuer.issue(user.id) };
    });
  }
}
