import { checkPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-policy.js';

describe('checkPassword', () => {
  it('has the bounds 10..1024', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(10);
    expect(PASSWORD_MAX_LENGTH).toBe(1024);
  });

  it.each([10, 11, 100, 1024])('accepts %p characters', (length) => {
    expect(checkPassword('p'.repeat(length))).toBeNull();
  });

  it.each([0, 1, 9])('rejects %p characters as too short', (length) => {
    expect(checkPassword('p'.repeat(length))).toBe('Password must be at least 10 characters');
  });

  it('rejects 1025 characters as too long', () => {
    expect(checkPassword('p'.repeat(1025))).toBe('Password must be at most 1024 characters');
  });

  it('counts code points, not UTF-16 units', () => {
    // Each emoji is one code point but two UTF-16 units.
    expect(checkPassword('😀'.repeat(9))).toMatch(/at least/);
    expect(checkPassword('😀'.repeat(10))).toBeNull();
    expect(checkPassword('😀'.repeat(1024))).toBeNull();
    expect(checkPassword('😀'.repeat(1025))).toMatch(/at most/);
  });

  it.each([undefined, null, 1234567890, ['p'.repeat(12)]])('rejects the non-string %p', (value) => {
    expect(checkPassword(value)).toBe('Password must be a string');
  });
});
