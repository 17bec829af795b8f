import { ValidationFailedError, parseId, InvalidParameterError } from '@rc/shared-kernel';

type Query = Record<string, unknown>;

const last = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);

/** Presence flags: on when the parameter is present, whatever its value (as in the original API). */
export function flag(query: Query, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(query, name);
}

/** The `revisionid` a write must carry: missing or malformed is a 422, as in the original API. */
export function requiredRevision(query: Query, name = 'revisionid'): number {
  const value = parseId(last(query[name]));
  if (value === null) throw new ValidationFailedError(`The query parameter '${name}' is required: the current revision id`, [{ field: name, message: `${name} is required and must be a revision id` }]);
  return value;
}

/** A required integer id parameter of a read (e.g. `from` and `to` of a diff): missing or malformed is a 400. */
export function requiredId(query: Query, name: string): number {
  const value = parseId(last(query[name]));
  if (value === null) throw new InvalidParameterError(`Parameter '${name}' is required and must be a positive integer`);
  return value;
}

/** An optional integer id parameter (e.g. `revisionid` on a read); malformed is a 400. */
export function optionalId(query: Query, name: string): number | undefined {
  const raw = last(query[name]);
  if (raw === undefined) return undefined;
  const value = parseId(raw);
  if (value === null) throw new InvalidParameterError(`Parameter '${name}' must be a positive integer`);
  return value;
}

/** `order`: ASC (default) or DESC, any case. */
export function order(query: Query): 'ASC' | 'DESC' {
  const raw = last(query['order']);
  if (raw === undefined) return 'ASC';
  if (typeof raw === 'string' && ['asc', 'desc'].includes(raw.toLowerCase())) return raw.toUpperCase() as 'ASC' | 'DESC';
  throw new InvalidParameterError("Parameter 'order' must be ASC or DESC");
}

/** A UNIX-seconds timestamp parameter. */
export function timestamp(query: Query, name: string): Date | undefined {
  const raw = last(query[name]);
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[0-9]{1,12}$/.test(raw)) throw new InvalidParameterError(`Parameter '${name}' must be a UNIX timestamp in seconds`);
  return new Date(Number(raw) * 1000);
}

/** A comma-separated list parameter. */
export function list(query: Query, name: string): string[] | undefined {
  const raw = last(query[name]);
  if (raw === undefined) return undefined;
  return String(raw).split(',').map((s) => s.trim()).filter(Boolean);
}
