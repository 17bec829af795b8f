import type { Clock, UnitOfWork } from '@rc/shared-kernel';
import { InvalidAccountDataError, InvalidResetCodeError, UserNotFoundError } from '../identity.errors.js';
import type { IdentityPolicy } from '../identity-policy.js';
import type { AttemptThrottle } from '../model/attempt-throttle.js';
import { parseEmail } from '../model/email.js';
import { checkPassword } from '../model/password-policy.js';
import type { AuthTokenRepository } from '../ports/auth-token.repository.js';
import type { Mailer } from '../ports/mailer.js';
import type { PasswordResetRepository } from '../ports/password-reset.repository.js';
import type { PasswordHasher, Secrets } from '../ports/secrets.js';
import type { UserRepository } from '../ports/user.repository.js';

/**
 * Sends a single-use reset code to the address when it has an account. The caller learns nothing
 * either way: the outcome is the same, and requests are throttled per address and per client.
 */
export class RequestPasswordReset {
  constructor(
    private readonly users: UserRepository,
    private readonly resets: PasswordResetRepository,
    private readonly secrets: Secrets,
    private readonly mailer: Mailer,
    private readonly throttle: AttemptThrottle,
    private readonly clock: Clock,
    private readonly policy: Pick<IdentityPolicy, 'throttle' | 'resetCodeTtlSeconds'>,
  ) {}

  async execute(input: { email: unknown; clientAddress: string }): Promise<void> {
    const email = parseEmail(input.email);
    if (!email) throw new InvalidAccountDataError([{ field: 'email', message: 'Email address is not valid' }]);
    const limits = [
      { kind: 'reset-email' as const, key: email, max: this.policy.throttle.resetRequestsPerEmail },
      { kind: 'reset-address' as const, key: input.clientAddress, max: this.policy.throttle.resetRequestsPerAddress },
    ];
    await this.throttle.attempt(limits); // every request counts, answered or not

    const user = await this.users.findByEmail(email);
    if (!user?.isActive) return;
    const code = this.secrets.generate();
    const now = this.clock.now();
    const ttl = this.policy.resetCodeTtlSeconds;
    await this.resets.add({ digest: this.secrets.digest(code), userId: user.id, createdAt: now, expiresAt: new Date(now.getTime() + ttl * 1000) });
    await this.mailer.send({
      to: user.email,
      subject: 'Your password reset code',
      text:
        `Someone asked to reset the password of the account ${user.uniqueUsername}.\n\n` +
        `Code: ${code}\n\n` +
        `It works once, within ${Math.max(1, Math.floor(ttl / 60))} minutes: POST it with a new password to /api/2.0/users/reset_password/confirm.\n` +
        `If you did not ask for this, ignore this message; your password stays as it is.\n`,
    });
  }
}

/** Sets a new password with a reset code, signs the account out everywhere and voids its other codes. */
export class ConfirmPasswordReset {
  constructor(
    private readonly users: UserRepository,
    private readonly resets: PasswordResetRepository,
    private readonly tokens: AuthTokenRepository,
    private readonly secrets: Secrets,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(input: { code: unknown; password: unknown }): Promise<void> {
    const problem = checkPassword(input.password);
    if (problem) throw new InvalidAccountDataError([{ field: 'password', message: problem }]);
    if (typeof input.code !== 'string' || input.code.length > 256) throw new InvalidResetCodeError();
    const passwordHash = await this.hasher.hash(input.password as string);
    await this.uow.run(async () => {
      const userId = await this.resets.consume(this.secrets.digest(input.code as string), this.clock.now());
      if (userId === null) throw new InvalidResetCodeError();
      const user = await this.users.findById(userId);
      if (!user) throw new UserNotFoundError();
      user.changePassword(passwordHash);
      await this.users.save(user);
      await this.tokens.removeAllOf(userId);
      await this.resets.revokeAllOf(userId, this.clock.now());
    });
  }
}
