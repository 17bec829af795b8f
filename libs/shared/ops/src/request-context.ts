import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The request being handled, for code that has no `req` at hand (a domain adapter's log line, the
 * Nest logger bridge, a background promise started by the request): its id, set once by the
 * server's request listener ahead of the hot path and Express, and seen by every callback and
 * promise continuation that descends from it.
 */
const requests = new AsyncLocalStorage<string>();

/** A caller's `X-Request-Id` is kept when it looks like one (the rule of the request log). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the caller's `X-Request-Id` when well-formed, or a new one, written back to the
 * request's headers so that the request log and `X-Request-Id` on the response use the same.
 */
export function assignRequestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && REQUEST_ID.test(given)) return given;
  const id = randomUUID();
  req.headers['x-request-id'] = id;
  return id;
}

/** Runs `handler(req, res)` as the request `id`: everything it starts sees that id. */
export function runInRequest<A, B>(id: string, handler: (a: A, b: B) => void, a: A, b: B): void {
  requests.run(id, handler, a, b);
}

/** The id of the request whose handling this code descends from, if any. */
export function currentRequestId(): string | undefined {
  return requests.getStore();
}

/**
 * pino's `mixin`: each line logged while a request is handled carries its `requestId` (the field of
 * the request log). A fresh object per line, since pino merges the line's fields into it.
 */
export function requestIdMixin(): Record<string, unknown> {
  const requestId = requests.getStore();
  return requestId === undefined ? {} : { requestId };
}
