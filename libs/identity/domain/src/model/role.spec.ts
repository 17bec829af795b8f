import { isAdmin } from './principal.js';
import { isRole, privilegesOf } from './role.js';
import type { UserId } from './user.js';

describe('roles', () => {
  it('an Admin is also a User', () => {
    expect(privilegesOf('User')).toEqual(['User']);
    expect(privilegesOf('Admin')).toEqual(['User', 'Admin']);
  });

  it.each([
    ['User', true],
    ['Admin', true],
    ['admin', false],
    ['Root', false],
    [undefined, false],
    [1, false],
  ])('isRole(%p) is %p', (value, expected) => {
    expect(isRole(value)).toBe(expected);
  });

  it('isAdmin checks the principal role, and a missing principal is no admin', () => {
    const userId = 1 as UserId;
    expect(isAdmin({ userId, role: 'Admin', tokenDigest: 'd' })).toBe(true);
    expect(isAdmin({ userId, role: 'User', tokenDigest: 'd' })).toBe(false);
    expect(isAdmin(null)).toBe(false);
    expect(isAdmin(undefined)).toBe(false);
  });
});
