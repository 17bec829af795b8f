import { ValidationFailedError, parseId, InvalidParameterError } from '@rc/shared-kernel';

type Query = Record<string, unknown>;

const last = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);

/** Presence flags: on when the parameter is present, whatever its value (as in the original API). */
export function flag(query: Query, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(query, name);
}

/** The 422 of a write whose required revision parameter is missing or not an id (`invalid:` of its `@Endpoint`). */
export function revisionRequired(name = 'revisionid') {
  return { field: name, message: `${name} is required and must be a revision id`, summary: `The query parameter '${name}' is required: the current revision id` } as const;
}

/** The `revisionid` a write must carry: missing or malformed is a 422, as in the original API. */
export function requiredRevision(query: Query, name = 'revisionid'): number {
  const value = parseId(last(query[name]));
  if (value === null) {
    const { field, message, summary } = revisionRequired(name);
    throw new ValidationFailedError(summary, [{ field, message }]);
  }
  return value;
}

/** The 400 of a read whose required id parameter (`requiredId`) is missing or not an id (`badRequest:` of its `@Endpoint`). */
export const idRequired = (name: string): string => `Parameter '${name}' is required and must be a positive integer`;

/** A required integer id parameter of a read (e.g. `from` and `to` of a diff): missing or malformed is a 400. */
export function requiredId(query: Query, name: string): number {
  const value = parseId(last(query[name]));
  if (value === null) throw new InvalidParameterError(idRequired(name));
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
