/** A nominal type: `Brand<number, 'UserId'>` is a number that only a UserId factory produces. */
export type Brand<T, B extends string> = T & { readonly __brand: B };

/** Ids are positive integers that fit PostgreSQL's `integer`. */
export const MAX_ID = 2_147_483_647;

/** Whether a JSON value is an id: a positive integer that fits PostgreSQL's `integer`. */
export function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_ID;
}

/** Parses an id from a path or body value; `null` when it is not a positive 32-bit integer. */
export function parseId(value: unknown): number | null {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value > 0 && value <= MAX_ID ? value : null;
  }
  if (typeof value === 'string' && /^[1-9][0-9]{0,9}$/.test(value)) {
    const n = Number(value);
    return n <= MAX_ID ? n : null;
  }
  return null;
}
