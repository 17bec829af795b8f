import { FixedClock, ImmediateUnitOfWork, RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { DEFAULT_IDENTITY_POLICY, type IdentityPolicy } from '../identity-policy.js';
import { AttemptThrottle } from '../model/attempt-throttle.js';
import type { Principal } from '../model/principal.js';
import { TokenIssuer } from '../model/token-issuer.js';
import type { Registration, User } from '../model/user.js';
import { EnsureAdmin, SetUserRole } from '../use-cases/account-admin.use-cases.js';
import { ListApps, RegisterApp, RevokeApp, VerifyAppId } from '../use-cases/app-registry.use-cases.js';
import { AuthenticateToken } from '../use-cases/authenticate-token.use-case.js';
import { GetUser, GetUsers } from '../use-cases/get-user.use-case.js';
import { EditProfile, ListUsers } from '../use-cases/profile.use-cases.js';
import { InMemoryUserImages } from './in-memory-user-images.js';
import { Impersonate } from '../use-cases/impersonate.use-case.js';
import { LogIn } from '../use-cases/log-in.use-case.js';
import { LogOut } from '../use-cases/log-out.use-case.js';
import { ConfirmPasswordReset, RequestPasswordReset } from '../use-cases/password-reset.use-cases.js';
import { RegisterUser } from '../use-cases/register-user.use-case.js';
import { FakePasswordHasher } from './fake-password-hasher.js';
import { FakeSecrets } from './fake-secrets.js';
import { InMemoryAppRegistry } from './in-memory-app-registry.js';
import { InMemoryAttemptLog } from './in-memory-attempt-log.js';
import { InMemoryAuthTokenRepository } from './in-memory-auth-token.repository.js';
import { InMemoryPasswordResetRepository } from './in-memory-password-reset.repository.js';
import { InMemoryUserRepository } from './in-memory-user.repository.js';
import { RecordingMailer } from './recording-mailer.js';

/** Policy overrides: any top-level rule, and any single throttle rule. */
export type IdentityPolicyOverrides = Partial<Omit<IdentityPolicy, 'throttle'>> & { throttle?: Partial<IdentityPolicy['throttle']> };

export interface IdentityTestBedOptions {
  readonly policy?: IdentityPolicyOverrides;
  /** Start time of the FixedClock (default 2026-01-01T00:00:00Z). */
  readonly now?: Date | string;
}

/** A password that follows the policy, used by the helpers below. */
export const TEST_PASSWORD = 'correct horse battery staple';

/** Every fake and every use case of the identity context, wired together. */
export function identityTestBed(options: IdentityTestBedOptions = {}) {
  const policy: IdentityPolicy = {
    ...DEFAULT_IDENTITY_POLICY,
    ...options.policy,
    throttle: { ...DEFAULT_IDENTITY_POLICY.throttle, ...options.policy?.throttle },
  };
  const clock = new FixedClock(options.now);
  const uow = new ImmediateUnitOfWork();
  const events = new RecordingIntegrationEvents();
  const users = new InMemoryUserRepository();
  const images = new InMemoryUserImages();
  const tokens = new InMemoryAuthTokenRepository(users);
  const apps = new InMemoryAppRegistry();
  const attempts = new InMemoryAttemptLog();
  const resets = new InMemoryPasswordResetRepository();
  const secrets = new FakeSecrets();
  const hasher = new FakePasswordHasher();
  const mailer = new RecordingMailer();
  const issuer = new TokenIssuer(tokens, secrets, clock, policy);
  const throttle = new AttemptThrottle(attempts, clock, policy.throttle.windowSeconds);

  const bed = {
    events,
    policy,
    clock,
    uow,
    users,
    tokens,
    apps,
    attempts,
    resets,
    secrets,
    hasher,
    mailer,
    issuer,
    throttle,

    logIn: new LogIn(users, hasher, issuer, throttle, policy),
    authenticateToken: new AuthenticateToken(tokens, secrets, clock),
    logOut: new LogOut(tokens),
    registerUser: new RegisterUser(users, hasher, issuer, throttle, clock, uow, policy, events),
    requestPasswordReset: new RequestPasswordReset(users, resets, secrets, mailer, throttle, clock, policy),
    confirmPasswordReset: new ConfirmPasswordReset(users, resets, tokens, secrets, hasher, clock, uow),
    impersonate: new Impersonate(users, issuer),
    getUser: new GetUser(users),
    getUsers: new GetUsers(users),
    listUsers: new ListUsers(users),
    images,
    editProfile: new EditProfile(users, uow, images),
    ensureAdmin: new EnsureAdmin(users, hasher, tokens, clock, uow),
    setUserRole: new SetUserRole(users),
    verifyAppId: new VerifyAppId(apps),
    registerApp: new RegisterApp(apps, secrets, clock),
    listApps: new ListApps(apps),
    revokeApp: new RevokeApp(apps, clock),

    /** Moves the clock forward by whole seconds. */
    advanceSeconds(seconds: number): void {
      clock.advance(seconds * 1000);
    },

    /**
     * Registers an account through RegisterUser. Defaults: `userN@example.com`, `userN`,
     * display name `User N`, password TEST_PASSWORD.
     */
    async signUp(registration: Partial<Registration> = {}, actor: Principal | null = null): Promise<{ user: User; token: string; principal: Principal }> {
      const n = users.all().length + 1;
      const result = await bed.registerUser.execute({
        registration: { email: `user${n}@example.com`, username: `User ${n}`, uniqueUsername: `user${n}`, password: TEST_PASSWORD, ...registration },
        actor,
      });
      return { ...result, principal: await bed.authenticateToken.execute(result.token) };
    },

    /** Creates (or updates) an Admin account through EnsureAdmin and logs it in. */
    async signInAdmin(email = 'admin@example.com', password = TEST_PASSWORD): Promise<{ user: User; token: string; principal: Principal }> {
      await bed.ensureAdmin.execute({ email, password });
      const result = await bed.logIn.execute({ email, password, clientAddress: '10.0.0.1' });
      return { ...result, principal: await bed.authenticateToken.execute(result.token) };
    },
  };
  return bed;
}

export type IdentityTestBed = ReturnType<typeof identityTestBed>;

/** The error a promise rejects with; fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject, but it resolved');
}

/** The reset code in a password reset mail. */
export function resetCodeIn(mail: { text: string }): string {
  const match = /^Code: (\S+)$/m.exec(mail.text);
  if (!match) throw new Error('No reset code in the mail');
  return match[1];
}
