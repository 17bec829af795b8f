export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 1024;

/** The rule passwords follow; returns what is wrong, or `null`. */
export function checkPassword(value: unknown): string | null {
  if (typeof value !== 'string') return 'Password must be a string';
  const length = [...value].length;
  if (length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}
