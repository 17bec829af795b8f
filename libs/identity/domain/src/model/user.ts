import type { Brand, Violation } from '@rc/shared-kernel';
import { InvalidAccountDataError } from '../identity.errors.js';
import { parseEmail, type Email } from './email.js';
import { checkPassword } from './password-policy.js';
import type { Role } from './role.js';

export type UserId = Brand<number, 'UserId'>;
export type UserStatus = 'active' | 'disabled';

export const USERNAME_MAX_LENGTH = 60;
/** Profile limits, in characters (code points). */
export const ABOUT_MAX_LENGTH = 10_000;
export const SUMMARY_MAX_LENGTH = 255;
export const LOCATION_MAX_LENGTH = 100;
const UNIQUE_USERNAME = /^[A-Za-z0-9][A-Za-z0-9_-]{2,29}$/;
const LANGID = /^[a-z]{2}$/;
const LANGID_MESSAGE = 'langid must be two lower-case letters';
// Control characters (C0, DEL, C1) and the Unicode line/paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// Markup text may hold tabs and line breaks, but no other control character.
// eslint-disable-next-line no-control-regex
const MARKUP_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export interface UserState {
  readonly id: UserId;
  readonly email: Email;
  readonly username: string;
  readonly uniqueUsername: string;
  readonly passwordHash: string;
  readonly role: Role;
  readonly status: UserStatus;
  readonly joinedAt: Date;
  readonly about: string;
  readonly summary: string | null;
  readonly location: string | null;
  readonly langid: string;
  readonly imageId: number | null;
}

/** What authors and members show of an active account (a user summary), read without the rest of the account. */
export type UserCard = Pick<UserState, 'id' | 'username' | 'uniqueUsername' | 'joinedAt' | 'imageId'>;

/** Input of a registration, as the caller sent it (validated by `User.register`). */
export interface Registration {
  readonly email: unknown;
  readonly username: unknown;
  readonly uniqueUsername: unknown;
  readonly password: unknown;
}

/**
 * A profile edit as the caller sent it. An absent (`undefined`) field is left as it is; `null`
 * (or an empty text) clears `about`, `summary` and `location`.
 */
export interface ProfileEdit {
  readonly username?: unknown;
  readonly about?: unknown;
  readonly summary?: unknown;
  readonly location?: unknown;
  readonly langid?: unknown;
  /** The avatar: an image id, or `null` for none. */
  readonly image?: unknown;
}

type ProfileFields = Pick<UserState, 'username' | 'about' | 'summary' | 'location' | 'langid' | 'imageId'>;

/**
 * A user account. State is read-only from outside and changes only through the methods below.
 * The persistence layer hydrates instances without calling the constructor.
 */
export class User implements UserState {
  readonly id!: UserId;
  readonly email!: Email;
  readonly username!: string;
  readonly uniqueUsername!: string;
  readonly passwordHash!: string;
  readonly role!: Role;
  readonly status!: UserStatus;
  readonly joinedAt!: Date;
  readonly about!: string;
  readonly summary!: string | null;
  readonly location!: string | null;
  readonly langid!: string;
  readonly imageId!: number | null;

  private constructor(state: UserState) {
    Object.assign(this, state);
  }

  /**
   * Checks a registration against the account rules. Returns the normalised values, or throws
   * one error that lists every broken rule. An unusable display name is replaced by one derived
   * from the email address, as the original API does.
   */
  static validateRegistration(input: Registration): { email: Email; username: string; uniqueUsername: string; password: string } {
    const violations: Violation[] = [];
    const email = parseEmail(input.email);
    if (!email) violations.push({ field: 'email', message: 'Email address is not valid' });
    const passwordProblem = checkPassword(input.password);
    if (passwordProblem) violations.push({ field: 'password', message: passwordProblem });
    const uniqueUsername = typeof input.uniqueUsername === 'string' ? input.uniqueUsername.trim() : '';
    if (!UNIQUE_USERNAME.test(uniqueUsername)) {
      violations.push({
        field: 'unique_username',
        message: 'unique_username must be 3 to 30 letters, digits, underscores or hyphens, starting with a letter or digit',
      });
    }
    if (violations.length) throw new InvalidAccountDataError(violations);
    return {
      email: email as Email,
      username: normaliseDisplayName(input.username) ?? displayNameFromEmail(email as Email),
      uniqueUsername,
      password: input.password as string,
    };
  }

  static register(input: {
    id: UserId;
    email: Email;
    username: string;
    uniqueUsername: string;
    passwordHash: string;
    role?: Role;
    joinedAt: Date;
  }): User {
    return new User({
      id: input.id,
      email: input.email,
      username: input.username,
      uniqueUsername: input.uniqueUsername,
      passwordHash: input.passwordHash,
      role: input.role ?? 'User',
      status: 'active',
      joinedAt: input.joinedAt,
      about: '',
      summary: null,
      location: null,
      langid: 'en',
      imageId: null,
    });
  }

  get isActive(): boolean {
    return this.status === 'active';
  }

  changePassword(passwordHash: string): void {
    this.patch({ passwordHash });
  }

  assignRole(role: Role): void {
    this.patch({ role });
  }

  /** Re-enables a disabled account. */
  activate(): void {
    this.patch({ status: 'active' });
  }

  /** Language preference: two lower-case letters (`jp` is accepted, as in the original's data). */
  changeLanguage(langid: string): void {
    if (!LANGID.test(langid)) throw new InvalidAccountDataError([{ field: 'langid', message: LANGID_MESSAGE }]);
    this.patch({ langid });
  }

  /**
   * Applies a profile edit as one change: every field is checked first, and one error lists every
   * broken rule (nothing is changed then). Texts are normalised: the display name, summary and
   * location are trimmed with white space folded; an `about` of only white space is empty.
   * Returns whether anything changed.
   */
  editProfile(edit: ProfileEdit): boolean {
    const change = User.checkProfileEdit(edit);
    const changed = (Object.keys(change) as (keyof ProfileFields)[]).some((field) => this[field] !== change[field]);
    this.patch(change);
    return changed;
  }

  /** The normalised fields of a profile edit, or an error listing every broken rule. */
  static checkProfileEdit(edit: ProfileEdit): Partial<ProfileFields> {
    const violations: Violation[] = [];
    const change: { -readonly [K in keyof ProfileFields]?: ProfileFields[K] } = {};
    if (edit.username !== undefined) {
      const username = normaliseDisplayName(edit.username);
      if (username === null) violations.push({ field: 'username', message: `username must be 1 to ${USERNAME_MAX_LENGTH} characters, without control characters` });
      else change.username = username;
    }
    if (edit.about !== undefined) {
      const about = edit.about ?? '';
      if (typeof about !== 'string') violations.push({ field: 'about', message: 'about must be a text' });
      else if ([...about].length > ABOUT_MAX_LENGTH) violations.push({ field: 'about', message: `about must be at most ${ABOUT_MAX_LENGTH} characters` });
      else if (MARKUP_CONTROL.test(about)) violations.push({ field: 'about', message: 'about may not contain control characters' });
      else change.about = about.trim() ? about : '';
    }
    for (const [field, max] of [['summary', SUMMARY_MAX_LENGTH], ['location', LOCATION_MAX_LENGTH]] as const) {
      const value = edit[field];
      if (value === undefined) continue;
      const text = normaliseLine(value, max);
      if (text === undefined) violations.push({ field, message: `${field} must be a text of at most ${max} characters, without control characters` });
      else change[field] = text;
    }
    if (edit.langid !== undefined) {
      if (typeof edit.langid !== 'string' || !LANGID.test(edit.langid)) violations.push({ field: 'langid', message: LANGID_MESSAGE });
      else change.langid = edit.langid;
    }
    if (edit.image !== undefined) {
      if (edit.image === null) change.imageId = null;
      else if (typeof edit.image !== 'number' || !Number.isInteger(edit.image) || edit.image < 1 || edit.image > 2_147_483_647) {
        violations.push({ field: 'image', message: 'image must be an image id or null' });
      } else change.imageId = edit.image;
    }
    if (violations.length) throw new InvalidAccountDataError(violations);
    return change;
  }

  private patch(change: Partial<UserState>): void {
    Object.assign(this, change);
  }
}

/**
 * An optional one-line text: `null` or blank clears it (`null`); otherwise trimmed, with runs of
 * white space folded into one space. `undefined` when it is not usable (not a text, too long, or
 * with control characters).
 */
function normaliseLine(value: unknown, max: number): string | null | undefined {
  if (value === null) return null;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/\s+/g, ' ');
  if (!text) return null;
  if (CONTROL.test(text) || [...text].length > max) return undefined;
  return text;
}

/** A usable display name (trimmed, single-spaced, no control characters, at most 60 code points), or `null`. */
export function normaliseDisplayName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim().replace(/\s+/g, ' ');
  if (!name || CONTROL.test(name) || [...name].length > USERNAME_MAX_LENGTH) return null;
  return name;
}

function displayNameFromEmail(email: Email): string {
  const local = email.slice(0, email.indexOf('@')).replace(/[._+-]+/g, ' ').trim();
  return [...(local || 'user')].slice(0, USERNAME_MAX_LENGTH).join('');
}
