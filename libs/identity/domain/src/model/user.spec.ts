import { InvalidAccountDataError } from '../identity.errors.js';
import type { Email } from './email.js';
import { User, USERNAME_MAX_LENGTH, type Registration, type UserId } from './user.js';

const valid: Registration = { email: 'Jane@Example.com', username: 'Jane Doe', uniqueUsername: 'jane_doe', password: 'correct horse battery' };

function violationsOf(input: Registration): { field: string; message: string }[] {
  try {
    User.validateRegistration(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    return [...(error as InvalidAccountDataError).violations];
  }
  throw new Error('Expected the registration to be rejected');
}

describe('User.validateRegistration', () => {
  it('returns the normalised values', () => {
    expect(User.validateRegistration({ ...valid, uniqueUsername: '  jane_doe  ', username: '  Jane \t  Doe ' })).toEqual({
      email: 'jane@example.com',
      username: 'Jane Doe',
      uniqueUsername: 'jane_doe',
      password: 'correct horse battery',
    });
  });

  it('keeps the password as given (no trimming)', () => {
    expect(User.validateRegistration({ ...valid, password: '  spaced password  ' }).password).toBe('  spaced password  ');
  });

  it('reports every broken rule at once, by field', () => {
    const violations = violationsOf({ email: 'not an email', username: 'x', uniqueUsername: '!', password: 'short' });
    expect(violations.map((v) => v.field)).toEqual(['email', 'password', 'unique_username']);
    expect(violations.every((v) => v.message.length > 0)).toBe(true);
  });

  it('joins the messages into the error message', () => {
    try {
      User.validateRegistration({ ...valid, email: 'nope', password: 'short' });
      throw new Error('not rejected');
    } catch (error) {
      expect((error as Error).message).toBe('Email address is not valid; Password must be at least 10 characters');
      expect((error as InvalidAccountDataError).code).toBe('IDENTITY.INVALID_ACCOUNT_DATA');
    }
  });

  it.each([
    [{ email: undefined }, 'email'],
    [{ email: 'jane@localhost' }, 'email'],
    [{ password: undefined }, 'password'],
    [{ password: 'p'.repeat(1025) }, 'password'],
    [{ uniqueUsername: undefined }, 'unique_username'],
  ])('rejects %p on %p', (change, field) => {
    expect(violationsOf({ ...valid, ...change }).map((v) => v.field)).toEqual([field]);
  });

  describe('unique_username', () => {
    it.each(['abc', 'a'.repeat(30), 'Jane_Doe', '0cool', 'a-b_c', 'ABC123'])('accepts %p', (uniqueUsername) => {
      expect(User.validateRegistration({ ...valid, uniqueUsername }).uniqueUsername).toBe(uniqueUsername);
    });

    it.each(['', 'ab', 'a'.repeat(31), '_jane', '-jane', 'jane doe', 'jane.doe', 'jané', 'jane@x', 42])('rejects %p', (uniqueUsername) => {
      expect(violationsOf({ ...valid, uniqueUsername }).map((v) => v.field)).toEqual(['unique_username']);
    });

    it('keeps the case as given', () => {
      expect(User.validateRegistration({ ...valid, uniqueUsername: 'JaneDoe' }).uniqueUsername).toBe('JaneDoe');
    });
  });

  describe('display name', () => {
    it('accepts a name of 60 code points', () => {
      const name = 'é'.repeat(USERNAME_MAX_LENGTH);
      expect(User.validateRegistration({ ...valid, username: name }).username).toBe(name);
    });

    it.each([
      ['missing', undefined],
      ['not a string', 42],
      ['empty', ''],
      ['blank', '   '],
      ['too long', 'n'.repeat(61)],
      ['with a control character', 'Jane\u0000Doe'],
      ['with DEL', 'Jane\u007fDoe'],
      ['with a C1 control character', 'Jane\u0085Doe'],
    ])('is derived from the email when %s', (_case, username) => {
      expect(User.validateRegistration({ ...valid, email: 'jane.doe+news@example.com', username }).username).toBe('jane doe news');
    });

    it('folds any run of white space, line separators included, into one space', () => {
      expect(User.validateRegistration({ ...valid, username: ' Jane\n\t\u2028 Doe ' }).username).toBe('Jane Doe');
    });

    it('is derived from the email even when only the display name is wrong (no violation)', () => {
      expect(() => User.validateRegistration({ ...valid, username: '' })).not.toThrow();
    });

    it("falls back to 'user' when the email's local part has no usable letter", () => {
      expect(User.validateRegistration({ ...valid, email: '._+-@example.com', username: '' }).username).toBe('user');
    });

    it('cuts a derived name to 60 characters', () => {
      const local = 'a'.repeat(64);
      expect(User.validateRegistration({ ...valid, email: `${local}@example.com`, username: null }).username).toBe('a'.repeat(60));
    });
  });
});

describe('User', () => {
  const user = () =>
    User.register({
      id: 7 as UserId,
      email: 'jane@example.com' as Email,
      username: 'Jane',
      uniqueUsername: 'jane',
      passwordHash: 'hashed:x',
      joinedAt: new Date('2026-01-01T00:00:00Z'),
    });

  it('registers an active User with the defaults', () => {
    expect({ ...user() }).toEqual({
      id: 7,
      email: 'jane@example.com',
      username: 'Jane',
      uniqueUsername: 'jane',
      passwordHash: 'hashed:x',
      role: 'User',
      status: 'active',
      joinedAt: new Date('2026-01-01T00:00:00Z'),
      about: '',
      summary: null,
      location: null,
      langid: 'en',
      imageId: null,
    });
    expect(user().isActive).toBe(true);
  });

  it('may register with a role', () => {
    expect(User.register({ ...user(), role: 'Admin' }).role).toBe('Admin');
  });

  it('changes its password and role', () => {
    const u = user();
    u.changePassword('hashed:y');
    u.assignRole('Admin');
    expect(u.passwordHash).toBe('hashed:y');
    expect(u.role).toBe('Admin');
  });

  it.each(['fr', 'jp'])('accepts the language %p', (langid) => {
    const u = user();
    u.changeLanguage(langid);
    expect(u.langid).toBe(langid);
  });

  it.each(['FR', 'fra', 'f', '', 'f1'])('refuses the language %p', (langid) => {
    const u = user();
    expect(() => u.changeLanguage(langid)).toThrow(InvalidAccountDataError);
    expect(u.langid).toBe('en');
  });
});
