import { EntitySchema } from '@mikro-orm/core';
import { userStandingTriggerBody } from '@rc/shared-infra-mikro-orm';
import { User, type UserState } from '@rc/identity-domain';

/** `users`: the User aggregate, mapped onto the domain class itself (no decorators, no ORM entity). */
/** What user objects show of a user, announced when it changes (see USER_STANDINGS_CHANNEL). */
export const USER_STANDING_TRIGGER_BODY = userStandingTriggerBody('id', ['username', 'unique_username', 'joined_at', 'status', 'image_id']);

export const UserSchema = new EntitySchema<UserState>({
  class: User as unknown as new () => UserState,
  tableName: 'users',
  triggers: [{ name: 'users_standing_notify', timing: 'after', events: ['update', 'delete'], forEach: 'row', body: USER_STANDING_TRIGGER_BODY }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    email: { type: 'string', length: 254, unique: 'users_email_key' },
    username: { type: 'string', length: 60 },
    uniqueUsername: { type: 'string', length: 30, fieldName: 'unique_username' },
    passwordHash: { type: 'text', fieldName: 'password_hash' },
    role: { type: 'string', length: 16 },
    status: { type: 'string', length: 16 },
    joinedAt: { type: 'datetime', fieldName: 'joined_at' },
    about: { type: 'text' },
    summary: { type: 'text', nullable: true },
    location: { type: 'text', nullable: true },
    langid: { type: 'string', length: 2 },
    imageId: { type: 'integer', nullable: true, fieldName: 'image_id' },
  },
});

export interface AuthTokenRow {
  digest: string;
  userId: number;
  createdAt: Date;
  expiresAt: Date;
}

/** `auth_tokens`: only the SHA-256 of each token is stored. */
export const AuthTokenSchema = new EntitySchema<AuthTokenRow>({
  name: 'AuthToken',
  tableName: 'auth_tokens',
  properties: {
    digest: { type: 'string', length: 64, primary: true },
    userId: { type: 'integer', fieldName: 'user_id' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    expiresAt: { type: 'datetime', fieldName: 'expires_at' },
  },
});

export interface AppIdRow {
  appId: string;
  name: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export const AppIdSchema = new EntitySchema<AppIdRow>({
  name: 'AppId',
  tableName: 'app_ids',
  properties: {
    appId: { type: 'string', length: 64, primary: true, fieldName: 'app_id' },
    name: { type: 'text' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    revokedAt: { type: 'datetime', nullable: true, fieldName: 'revoked_at' },
  },
});

export interface AuthAttemptRow {
  id: string;
  kind: string;
  key: string;
  at: Date;
}

/** `auth_attempts`: the shared log that login and reset throttling count. */
export const AuthAttemptSchema = new EntitySchema<AuthAttemptRow>({
  name: 'AuthAttempt',
  tableName: 'auth_attempts',
  properties: {
    id: { type: 'bigint', primary: true },
    kind: { type: 'string', length: 16 },
    key: { type: 'text' },
    at: { type: 'datetime' },
  },
});

export interface PasswordResetRow {
  digest: string;
  userId: number;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

export const PasswordResetSchema = new EntitySchema<PasswordResetRow>({
  name: 'PasswordReset',
  tableName: 'password_resets',
  properties: {
    digest: { type: 'string', length: 64, primary: true },
    userId: { type: 'integer', fieldName: 'user_id' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    expiresAt: { type: 'datetime', fieldName: 'expires_at' },
    usedAt: { type: 'datetime', nullable: true, fieldName: 'used_at' },
  },
});

export interface MailOutboxRow {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  createdAt: Date;
  sentAt: Date | null;
}

/** `mail_outbox`: every outgoing mail; without SMTP it is the only place mail goes (and the log). */
export const MailOutboxSchema = new EntitySchema<MailOutboxRow>({
  name: 'MailOutbox',
  tableName: 'mail_outbox',
  properties: {
    id: { type: 'bigint', primary: true },
    recipient: { type: 'text' },
    subject: { type: 'text' },
    body: { type: 'text' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    sentAt: { type: 'datetime', nullable: true, fieldName: 'sent_at' },
  },
});

export const identitySchemas = [UserSchema, AuthTokenSchema, AppIdSchema, AuthAttemptSchema, PasswordResetSchema, MailOutboxSchema];

/** Tables of this context, children first (for truncation in tests). */
export const identityTables = ['mail_outbox', 'password_resets', 'auth_attempts', 'auth_tokens', 'app_ids', 'users'];
