import { InvalidLoginError, PasswordHashingBusyError } from '../identity.errors.js';
import type { IdentityPolicy } from '../identity-policy.js';
import type { AttemptThrottle } from '../model/attempt-throttle.js';
import { parseEmail } from '../model/email.js';
import type { TokenIssuer } from '../model/token-issuer.js';
import type { User } from '../model/user.js';
import type { UserRepository } from '../ports/user.repository.js';
import type { PasswordHasher } from '../ports/secrets.js';

export interface LogInInput {
  readonly email: unknown;
  readonly password: unknown;
  /** The caller's network address, for throttling. */
  readonly clientAddress: string;
}

/**
 * Exchanges credentials for a token. A wrong email and a wrong password are indistinguishable:
 * same error, and a password hash is verified in both cases so the timing matches too.
 *
 * Failures are refused for a while (before any lookup, so the answer is the same for an email
 * with or without an account) when there were too many for this email from this client address,
 * from this address whatever the email, or for this email from all addresses together. The last
 * limit is far higher than the first: failures from one address (at most the first limit of them)
 * never refuse the right password from another, and only guessing spread over many addresses
 * reaches it. A successful login forgets its own attempt and the failures of its email from its
 * address, not those from elsewhere. A login refused because every password-hashing slot is busy
 * (503) tried no password: its attempt is forgotten, whether or not the email has an account.
 */
export class LogIn {
  /** Verified when the email has no account, so that the answer takes as long as for a real one. */
  private decoyHash: Promise<string> | null = null;

  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly issuer: TokenIssuer,
    private readonly throttle: AttemptThrottle,
    private readonly policy: Pick<IdentityPolicy, 'throttle'>,
  ) {}

  async execute(input: LogInInput): Promise<{ user: User; token: string }> {
    const email = parseEmail(input.email);
    // Malformed addresses share one key: they can never log in, and they never reach storage as text.
    const emailKey = email ?? '(malformed)';
    const { throttle } = this.policy;
    const pair = { kind: 'login-pair' as const, key: `${input.clientAddress} ${emailKey}`, max: throttle.loginFailuresPerEmailAndAddress };
    const attempt = await this.throttle.attempt([
      pair,
      { kind: 'login-email', key: emailKey, max: throttle.loginFailuresPerEmail },
      { kind: 'login-address', key: input.clientAddress, max: throttle.loginFailuresPerAddress },
    ]);

    const password = typeof input.password === 'string' ? input.password : '';
    const user = email ? await this.users.findByEmail(email) : null;
    let verified: boolean;
    try {
      verified = await this.hasher.verify(user?.passwordHash ?? (await this.decoy()), password);
    } catch (error) {
      // Refused before any password was tried (every hashing slot busy): not a failure to count.
      if (error instanceof PasswordHashingBusyError) await attempt.forget();
      throw error;
    }
    if (!user || !verified || !user.isActive) throw new InvalidLoginError(); // the attempt stays counted

    // One call to the token repository, atomic by its contract (one statement in PostgreSQL): no
    // transaction around it, whose `begin` and `commit` would be two more round trips.
    const token = await this.issuer.issue(user.id);
    await attempt.forget([pair]);
    return { user, token };
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= this.hasher.hash('decoy password that no account has');
    return this.decoyHash;
  }
}
