import { isUtf8 } from 'node:buffer';
import { InvalidInputError } from '@rc/shared-kernel';

/**
 * The deepest nesting of arrays and objects a request body may have (the outermost one is level 1).
 * No body of the API needs more than a handful of levels; deeper ones would only exhaust the
 * stack of whatever walks them (validation, class-transformer).
 */
export const MAX_JSON_DEPTH = 64;

/** A request body refused as a whole, before anything reads it: 400. */
export class RequestBodyRejectedError extends InvalidInputError {
  readonly code = 'HTTP.BODY_REJECTED';
}

export const TOO_DEEP = 'Request body is nested too deeply';
export const NOT_UNICODE = 'Request body contains text that is not valid Unicode';

/** A UTF-16 code unit of a surrogate pair standing alone (with the `u` flag a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The error of a body parser that could not read JSON: the exception filter answers it as any
 * invalid JSON (400, "Invalid JSON in the request body").
 */
function invalidJson(): Error {
  return Object.assign(new SyntaxError('JSON text starts with a byte order mark'), { status: 400, type: 'entity.parse.failed' });
}

/**
 * Checks the raw bytes of a body before they are decoded (the JSON parser's `verify` hook). In
 * UTF-8 (the default charset): a byte order mark is refused as invalid JSON (RFC 8259 forbids
 * sending one; the decoder would drop it silently), and bytes that are not UTF-8 (which the
 * decoder would turn into U+FFFD) are refused as text that is not Unicode.
 */
export function verifyJsonBytes(bytes: Buffer, encoding: string | null): void {
  if (encoding !== 'utf-8' && encoding !== 'utf8') return;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw invalidJson();
  if (!isUtf8(bytes)) throw new RequestBodyRejectedError(NOT_UNICODE);
}

/**
 * What makes a parsed body unacceptable as a whole, or `null`: nesting deeper than
 * `MAX_JSON_DEPTH`, or a string or key holding an unpaired surrogate (no UTF-8 text, and so no
 * PostgreSQL text, can hold one). Walks with its own stack, never recursing, and stops below
 * the limit, so a body of any depth costs at most its size.
 */
export function jsonBodyDefect(body: unknown): string | null {
  const values: unknown[] = [body];
  const depths: number[] = [1];
  while (values.length) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return NOT_UNICODE;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return TOO_DEEP;
    if (Array.isArray(value)) {
      for (const item of value) {
        values.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (LONE_SURROGATE.test(key)) return NOT_UNICODE;
      values.push((value as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return null;
}
