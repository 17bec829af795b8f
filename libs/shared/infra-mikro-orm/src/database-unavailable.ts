/**
 * Whether an error means the database could not be reached or dropped the connection (as opposed
 * to a statement it refused, or a bug): the request may succeed later, unchanged, so the answer is
 * a 503, not a 500.
 *
 * Recognised, on the error or any error it wraps (`cause`, an AggregateError's `errors`; MikroORM's
 * DriverException copies the driver error's fields onto itself):
 * - SQLSTATE class 08 (connection exception), 57P01 to 57P03 (admin shutdown, crash shutdown,
 *   cannot connect now: the server is starting, stopping or recovering) and 53300 (too many
 *   connections);
 * - the socket errors of a connection refused, reset or timed out, or of a host not found;
 * - node-postgres's own errors for a connection that ended or could not be opened in time, which
 *   carry no code.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e) || depth > 8) return false;
    seen.add(e);
    const { code, message, cause, errors } = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && (SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
    // A message is only read when no SQLSTATE says what happened (it may quote a statement's input).
    const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
    if (!sqlState && typeof message === 'string' && DRIVER_MESSAGES.some((m) => message.includes(m))) return true;
    if (visit(cause, depth + 1)) return true;
    return Array.isArray(errors) && errors.some((inner) => visit(inner, depth + 1));
  };
  return visit(error, 0);
}

const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** node-postgres (pg, pg-pool) messages of errors without a code. */
const DRIVER_MESSAGES = [
  'Connection terminated', // "… unexpectedly", "… due to connection timeout"
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];
