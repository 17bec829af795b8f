import { Module, type DynamicModule } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import {
  AppRegistry,
  AttemptLog,
  AttemptThrottle,
  BoundedPasswordHasher,
  type HashingBounds,
  AuthTokenRepository,
  AuthenticateToken,
  ConfirmPasswordReset,
  DEFAULT_IDENTITY_POLICY,
  EditProfile,
  UserImages,
  EnsureAdmin,
  GetUser,
  GetUsers,
  Impersonate,
  ListApps,
  ListUsers,
  LogIn,
  LogOut,
  Mailer,
  PasswordHasher,
  PasswordResetRepository,
  RegisterApp,
  RegisterUser,
  RequestPasswordReset,
  RevokeApp,
  Secrets,
  SetUserRole,
  TokenIssuer,
  UserRepository,
  VerifyAppId,
  type IdentityPolicy,
} from '@rc/identity-domain';
import {
  Argon2PasswordHasher,
  CryptoSecrets,
  DEFAULT_ARGON2,
  MikroOrmAppRegistry,
  MikroOrmAttemptLog,
  MikroOrmAuthTokenRepository,
  MikroOrmPasswordResetRepository,
  MikroOrmUserRepository,
  OutboxMailer,
  SmtpMailer,
  type Argon2Parameters,
  defaultHashingBounds,
} from '@rc/identity-infra-mikro-orm';
import { UserSummaries } from '@rc/identity-contracts';
import { Clock, IntegrationEvents, UnitOfWork } from '@rc/shared-kernel';
import { factory, LOGGER } from '@rc/shared-http';
import type { Logger } from 'pino';
import { UserStandings } from './user-standings.js';
import { IdentityUserSummaries } from './user-summaries.js';
import { AuthController } from './auth.controller.js';
import { ImpersonationController } from './impersonation.controller.js';
import { ProfilesController } from './profiles.controller.js';
import { UserViews } from './user-views.js';
import { UsersController } from './users.controller.js';

export const IDENTITY_POLICY = Symbol('IdentityPolicy');

/** What the identity module reads of the service's configuration. */
export interface IdentitySettings {
  readonly publicBaseUrl: string;
  readonly publicRegistration: boolean;
  /** The impersonation route exists only when on. */
  readonly impersonation: boolean;
  readonly tokenTtlDays: number;
  readonly maxTokensPerUser: number;
  /** Mail goes through SMTP when set, to the mail_outbox table otherwise. */
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
}

export interface IdentityModuleOptions {
  /** Replaces parts of the policy built from the configuration (tests shorten windows and limits). */
  readonly policy?: Partial<IdentityPolicy>;
  readonly argon2?: Argon2Parameters;
  /** How many password hashes run at once, and wait (default: `defaultHashingBounds()`, next to the argon2 hasher). */
  readonly hashing?: HashingBounds;
}


const useCases = [
  LogIn, LogOut, AuthenticateToken, RegisterUser, RequestPasswordReset, ConfirmPasswordReset, Impersonate, GetUser,
  EnsureAdmin, SetUserRole, VerifyAppId, RegisterApp, ListApps, RevokeApp, GetUsers, ListUsers, EditProfile,
];

/** The identity context's HTTP adapter: ports bound to their MikroORM adapters, use cases built by factories. */
@Module({})
export class IdentityApiModule {
  static register(config: IdentitySettings, options: IdentityModuleOptions = {}): DynamicModule {
    const policy: IdentityPolicy = {
      ...DEFAULT_IDENTITY_POLICY,
      publicRegistration: config.publicRegistration,
      tokenTtlSeconds: config.tokenTtlDays * 24 * 3600,
      maxTokensPerUser: config.maxTokensPerUser,
      ...options.policy,
    };
    const em = (orm: MikroORM) => orm.em;
    return {
      module: IdentityApiModule,
      // Other contexts' HTTP modules show authors and members through its published UserSummaries,
      // and the app's global guards use its use cases.
      global: true,
      controllers: [AuthController, UsersController, ProfilesController, ...(config.impersonation ? [ImpersonationController] : [])],
      providers: [
        { provide: IDENTITY_POLICY, useValue: policy },
        factory(UserRepository, (orm: MikroORM) => new MikroOrmUserRepository(em(orm)), [MikroORM]),
        factory(AuthTokenRepository, (orm: MikroORM) => new MikroOrmAuthTokenRepository(em(orm)), [MikroORM]),
        factory(AppRegistry, (orm: MikroORM) => new MikroOrmAppRegistry(em(orm)), [MikroORM]),
        factory(AttemptLog, (orm: MikroORM) => new MikroOrmAttemptLog(em(orm)), [MikroORM]),
        factory(PasswordResetRepository, (orm: MikroORM) => new MikroOrmPasswordResetRepository(em(orm)), [MikroORM]),
        factory(PasswordHasher, () => new BoundedPasswordHasher(new Argon2PasswordHasher(options.argon2 ?? DEFAULT_ARGON2), options.hashing ?? defaultHashingBounds()), []),
        factory(Secrets, () => new CryptoSecrets(), []),
        factory(
          Mailer,
          (orm: MikroORM, logger: Logger) =>
            config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : new OutboxMailer(em(orm), { info: (msg, fields) => logger.info(fields ?? {}, msg) }),
          [MikroORM, LOGGER],
        ),
        factory(AttemptThrottle, (log: AttemptLog, clock: Clock) => new AttemptThrottle(log, clock, policy.throttle.windowSeconds), [AttemptLog, Clock]),
        factory(TokenIssuer, (t: AuthTokenRepository, s: Secrets, c: Clock) => new TokenIssuer(t, s, c, policy), [AuthTokenRepository, Secrets, Clock]),
        factory(LogIn, (u: UserRepository, h: PasswordHasher, i: TokenIssuer, t: AttemptThrottle) => new LogIn(u, h, i, t, policy), [
          UserRepository, PasswordHasher, TokenIssuer, AttemptThrottle,
        ]),
        factory(LogOut, (t: AuthTokenRepository) => new LogOut(t), [AuthTokenRepository]),
        factory(AuthenticateToken, (t: AuthTokenRepository, s: Secrets, c: Clock) => new AuthenticateToken(t, s, c), [AuthTokenRepository, Secrets, Clock]),
        factory(
          RegisterUser,
          (u: UserRepository, h: PasswordHasher, i: TokenIssuer, t: AttemptThrottle, c: Clock, w: UnitOfWork, e: IntegrationEvents) => new RegisterUser(u, h, i, t, c, w, policy, e),
          [UserRepository, PasswordHasher, TokenIssuer, AttemptThrottle, Clock, UnitOfWork, IntegrationEvents],
        ),
        factory(
          RequestPasswordReset,
          (u: UserRepository, r: PasswordResetRepository, s: Secrets, m: Mailer, t: AttemptThrottle, c: Clock) => new RequestPasswordReset(u, r, s, m, t, c, policy),
          [UserRepository, PasswordResetRepository, Secrets, Mailer, AttemptThrottle, Clock],
        ),
        factory(
          ConfirmPasswordReset,
          (u: UserRepository, r: PasswordResetRepository, t: AuthTokenRepository, s: Secrets, h: PasswordHasher, c: Clock, w: UnitOfWork) =>
            new ConfirmPasswordReset(u, r, t, s, h, c, w),
          [UserRepository, PasswordResetRepository, AuthTokenRepository, Secrets, PasswordHasher, Clock, UnitOfWork],
        ),
        factory(Impersonate, (u: UserRepository, i: TokenIssuer) => new Impersonate(u, i), [UserRepository, TokenIssuer]),
        factory(GetUser, (u: UserRepository) => new GetUser(u), [UserRepository]),
        factory(GetUsers, (u: UserRepository) => new GetUsers(u), [UserRepository]),
        factory(ListUsers, (u: UserRepository) => new ListUsers(u), [UserRepository]),
        // UserImages: bound by the application to the media context's published images.
        factory(EditProfile, (u: UserRepository, w: UnitOfWork, i: UserImages) => new EditProfile(u, w, i), [UserRepository, UnitOfWork, UserImages]),
        factory(UserViews, (s: UserStandings, i: UserImages) => new UserViews(s, config.publicBaseUrl, i), [UserStandings, UserImages]),
        factory(
          UserSummaries,
          (users: GetUsers, user: GetUser, s: UserStandings, i: UserImages) => new IdentityUserSummaries(users, user, s, config.publicBaseUrl, i),
          [GetUsers, GetUser, UserStandings, UserImages],
        ),
        factory(
          EnsureAdmin,
          (u: UserRepository, h: PasswordHasher, t: AuthTokenRepository, c: Clock, w: UnitOfWork) => new EnsureAdmin(u, h, t, c, w),
          [UserRepository, PasswordHasher, AuthTokenRepository, Clock, UnitOfWork],
        ),
        factory(SetUserRole, (u: UserRepository) => new SetUserRole(u), [UserRepository]),
        factory(VerifyAppId, (a: AppRegistry) => new VerifyAppId(a), [AppRegistry]),
        factory(RegisterApp, (a: AppRegistry, s: Secrets, c: Clock) => new RegisterApp(a, s, c), [AppRegistry, Secrets, Clock]),
        factory(ListApps, (a: AppRegistry) => new ListApps(a), [AppRegistry]),
        factory(RevokeApp, (a: AppRegistry, c: Clock) => new RevokeApp(a, c), [AppRegistry, Clock]),
      ],
      exports: [...useCases, UserViews, UserSummaries],
    };
  }
}
