import type { Brand } from '@rc/shared-kernel';

/** A normalised email address (trimmed, lower-cased). */
export type Email = Brand<string, 'Email'>;

// eslint-disable-next-line no-control-regex
const EMAIL = /^[^\s@"<>()[\]\\,;:\u0000-\u001f\u007f-\u009f]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Returns the normalised address, or `null` when the text is not a plausible address. */
export function parseEmail(value: unknown): Email | null {
  if (typeof value !== 'string') return null;
  const email = value.trim().toLowerCase();
  if (email.length > 254 || email.indexOf('@') > 64 || !EMAIL.test(email)) return null;
  return email as Email;
}
