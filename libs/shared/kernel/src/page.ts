import { InvalidParameterError } from './errors.js';

/** One page of a list: the API's `limit`/`offset` pagination. */
export interface Page {
  readonly limit: number;
  readonly offset: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 200;

/**
 * Reads `limit` and `offset` from query values. Absent values take the defaults, a `limit`
 * above the maximum is clamped (as the original API does), and anything that is not a
 * non-negative integer is rejected.
 */
export function parsePage(query: { limit?: unknown; offset?: unknown }, maxLimit = MAX_LIMIT): Page {
  const limit = readCount('limit', query.limit, DEFAULT_LIMIT);
  const offset = readCount('offset', query.offset, 0);
  return { limit: Math.min(limit, maxLimit), offset };
}

function readCount(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (typeof value !== 'string' || !/^[0-9]{1,15}$/.test(value)) {
    throw new InvalidParameterError(`Parameter '${name}' must be a non-negative integer`);
  }
  return Number(value);
}
