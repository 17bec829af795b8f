import { InvalidAccountDataError } from '../identity.errors.js';
import type { Email } from './email.js';
import {
  ABOUT_MAX_LENGTH,
  LOCATION_MAX_LENGTH,
  SUMMARY_MAX_LENGTH,
  User,
  USERNAME_MAX_LENGTH,
  type ProfileEdit,
  type Registration,
  type UserId,
} from './user.js';

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

describe('User.editProfile', () => {
  const user = () =>
    User.register({
      id: 7 as UserId,
      email: 'jane@example.com' as Email,
      username: 'Jane',
      uniqueUsername: 'jane',
      passwordHash: 'hashed:x',
      joinedAt: new Date('2026-01-01T00:00:00Z'),
    });
  const profileOf = (u: User) => ({ username: u.username, about: u.about, summary: u.summary, location: u.location, langid: u.langid });

  function violationsOf(edit: ProfileEdit): string[] {
    const u = user();
    const before = { ...u };
    try {
      u.editProfile(edit);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidAccountDataError);
      expect({ ...u }).toEqual(before);
      return (error as InvalidAccountDataError).violations.map((v) => v.field);
    }
    throw new Error('Expected the edit to be rejected');
  }

  it('changes every profile field at once and says so', () => {
    const u = user();
    expect(u.editProfile({ username: 'Jane Doe', about: "I fix '''phones'''.", summary: 'Phone fixer', location: 'Lyon', langid: 'fr' })).toBe(true);
    expect(profileOf(u)).toEqual({ username: 'Jane Doe', about: "I fix '''phones'''.", summary: 'Phone fixer', location: 'Lyon', langid: 'fr' });
  });

  it('leaves absent fields as they are', () => {
    const u = user();
    u.editProfile({ summary: 'Phone fixer', location: 'Lyon' });
    u.editProfile({ about: 'More' });
    expect(profileOf(u)).toEqual({ username: 'Jane', about: 'More', summary: 'Phone fixer', location: 'Lyon', langid: 'en' });
  });

  it('touches nothing but the profile', () => {
    const u = user();
    u.editProfile({ username: 'Other', langid: 'de' });
    expect({ ...u }).toMatchObject({ id: 7, email: 'jane@example.com', uniqueUsername: 'jane', passwordHash: 'hashed:x', role: 'User', status: 'active' });
  });

  it('reports an edit that changes nothing (same values, or nothing sent)', () => {
    const u = user();
    u.editProfile({ summary: 'Phone fixer' });
    expect(u.editProfile({})).toBe(false);
    expect(u.editProfile({ summary: '  Phone   fixer ', username: 'Jane', langid: 'en' })).toBe(false);
    expect(u.editProfile({ summary: 'Phone fixer!' })).toBe(true);
  });

  it('clears about, summary and location with null or blank text', () => {
    const u = user();
    u.editProfile({ about: 'About me', summary: 'S', location: 'L' });
    u.editProfile({ about: null, summary: null, location: null });
    expect(profileOf(u)).toMatchObject({ about: '', summary: null, location: null });
    u.editProfile({ about: 'About me', summary: 'S', location: 'L' });
    u.editProfile({ about: ' \n\t ', summary: '   ', location: '' });
    expect(profileOf(u)).toMatchObject({ about: '', summary: null, location: null });
  });

  it('normalises one-line texts (trimmed, white space folded) and keeps markup as written', () => {
    const u = user();
    u.editProfile({ username: '  Jane \t Doe ', summary: ' Fixes\nphones ', location: ' Lyon,\u2028France ', about: '== Me ==\n\n* phones\n* laptops\n' });
    expect(profileOf(u)).toMatchObject({ username: 'Jane Doe', summary: 'Fixes phones', location: 'Lyon, France', about: '== Me ==\n\n* phones\n* laptops\n' });
  });

  it('accepts texts at their limits (in characters, not UTF-16 units)', () => {
    const u = user();
    u.editProfile({
      username: '😀'.repeat(USERNAME_MAX_LENGTH),
      about: 'é'.repeat(ABOUT_MAX_LENGTH),
      summary: '😀'.repeat(SUMMARY_MAX_LENGTH),
      location: 'l'.repeat(LOCATION_MAX_LENGTH),
    });
    expect([...u.summary!]).toHaveLength(SUMMARY_MAX_LENGTH);
    expect([...u.about]).toHaveLength(ABOUT_MAX_LENGTH);
  });

  it.each<[string, ProfileEdit, string]>([
    ['a missing display name', { username: null }, 'username'],
    ['a blank display name', { username: '   ' }, 'username'],
    ['a display name that is not text', { username: 42 }, 'username'],
    ['a display name too long', { username: 'n'.repeat(USERNAME_MAX_LENGTH + 1) }, 'username'],
    ['a display name with a control character', { username: 'Ja\u0007ne' }, 'username'],
    ['an about that is not text', { about: ['x'] }, 'about'],
    ['an about too long', { about: 'a'.repeat(ABOUT_MAX_LENGTH + 1) }, 'about'],
    ['an about with a control character', { about: 'a\u0001b' }, 'about'],
    ['a summary that is not text', { summary: 3 }, 'summary'],
    ['a summary too long', { summary: 's'.repeat(SUMMARY_MAX_LENGTH + 1) }, 'summary'],
    ['a summary with a C1 control character', { summary: 'a\u0085b' }, 'summary'],
    ['a location that is not text', { location: { city: 'Lyon' } }, 'location'],
    ['a location too long', { location: 'l'.repeat(LOCATION_MAX_LENGTH + 1) }, 'location'],
    ['a missing langid', { langid: null }, 'langid'],
    ['a langid of capitals', { langid: 'FR' }, 'langid'],
    ['a langid of three letters', { langid: 'fra' }, 'langid'],
    ['a langid that is not text', { langid: 12 }, 'langid'],
  ])('refuses %s, changing nothing', (_case, edit, field) => {
    expect(violationsOf(edit)).toEqual([field]);
  });

  it('lists every broken rule and applies none of the valid fields', () => {
    expect(violationsOf({ username: '', about: 'ok', summary: 5, location: 'Lyon', langid: 'xyz' })).toEqual(['username', 'summary', 'langid']);
  });

  it('checks an edit without an account (the use case checks before reading)', () => {
    expect(User.checkProfileEdit({ summary: ' x ', about: '  ' })).toEqual({ summary: 'x', about: '' });
    expect(() => User.checkProfileEdit({ langid: 'EN' })).toThrow(InvalidAccountDataError);
  });
});
