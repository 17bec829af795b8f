import type { Violation } from '@rc/shared-kernel';

// Control characters (C0, DEL, C1) and the Unicode line/paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A one-line text field: trimmed, at most `max` characters, no control characters, no markup (`<`, `>`). */
export function readPlainText(value: unknown, field: string, max: number, violations: Violation[], required = false): string | null {
  if (value === undefined || value === null || value === '') {
    if (required) violations.push({ field, message: `${field} is required` });
    return null;
  }
  if (typeof value !== 'string') {
    violations.push({ field, message: `${field} must be a string` });
    return null;
  }
  const text = value.trim();
  if (required && !text) violations.push({ field, message: `${field} must not be empty` });
  else if ([...text].length > max) violations.push({ field, message: `${field} must be at most ${max} characters` });
  else if (CONTROL.test(text)) violations.push({ field, message: `${field} may not contain control characters` });
  else if (/[<>]/.test(text)) violations.push({ field, message: `${field} may not contain markup` });
  else return text || null;
  return null;
}

/** An absolute http(s) URL of at most 2048 characters. */
export function readHttpUrl(value: unknown, field: string, violations: Violation[], required = false): string | null {
  const text = readPlainText(value, field, 2048, violations, required);
  if (text === null) return null;
  if (!/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(text)) {
    violations.push({ field, message: `${field} must be an http or https URL` });
    return null;
  }
  return text;
}

/** A positive whole number of at most `max`, or absent. */
export function readCount(value: unknown, field: string, max: number, violations: Violation[]): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    violations.push({ field, message: `${field} must be a whole number from 0 to ${max}` });
    return null;
  }
  return value;
}

/** A file name as shown to users: the last path segment, trimmed to 255 characters. */
export function displayFilename(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return [...last.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim()].slice(0, 255).join('') || 'file';
}
