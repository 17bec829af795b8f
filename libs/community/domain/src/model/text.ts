import type { Violation } from '@rc/shared-kernel';

// Control characters other than tab, line feed and carriage return (C0, DEL, C1), and the Unicode
// line/paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex
const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** A UTF-16 surrogate without its other half: text that is not Unicode (JSON may carry it escaped). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface TextRule {
  readonly max: number;
  /** May be empty (after trimming). */
  readonly optional?: boolean;
  /** One line: no line breaks or tabs. */
  readonly singleLine?: boolean;
}

/**
 * A text field as a client sent it: a string of Unicode text (no lone surrogates, no control
 * characters but tab and line breaks, none at all on one line), trimmed, within `max` characters
 * (code points). A violation is recorded, and `undefined` answered, otherwise.
 */
export function readText(raw: unknown, field: string, rule: TextRule, violations: Violation[]): string | undefined {
  if (typeof raw !== 'string') {
    violations.push({ field, message: `${field} must be a string` });
    return undefined;
  }
  if (LONE_SURROGATE.test(raw)) {
    violations.push({ field, message: `${field} is not valid Unicode text` });
    return undefined;
  }
  if ((rule.singleLine ? CONTROL_SINGLE_LINE : CONTROL).test(raw)) {
    violations.push({ field, message: `${field} may not contain control characters` });
    return undefined;
  }
  const text = raw.trim();
  if (!text && !rule.optional) {
    violations.push({ field, message: `${field} may not be empty` });
    return undefined;
  }
  if ([...text].length > rule.max) {
    violations.push({ field, message: `${field} must be at most ${rule.max} characters` });
    return undefined;
  }
  return text;
}

/** A language code: two lowercase letters (`jp` as the original uses it included). */
export function readLangid(raw: unknown, violations: Violation[]): string | undefined {
  if (typeof raw === 'string' && /^[a-z]{2}$/.test(raw)) return raw;
  violations.push({ field: 'langid', message: 'langid must be two lowercase letters' });
  return undefined;
}
