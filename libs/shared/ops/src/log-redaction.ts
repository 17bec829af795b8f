import type { LoggerOptions } from 'pino';

/** Fields that hold a credential: redacted at the top level of a line and inside the usual holders. */
const SECRET_FIELDS = ['password', 'newPassword', 'currentPassword', 'adminPassword', 'authToken', 'token', 'accessToken', 'refreshToken', 'resetCode', 'secret', 'apiKey'];

/**
 * Objects a line may carry such fields in. Listed rather than matched with a wildcard (`*.password`):
 * pino runs a wildcard path on every key of every line (about a microsecond per path and line,
 * measured), a listed path only on lines that have its first key.
 */
const HOLDERS = ['user', 'account', 'credentials', 'input', 'data', 'payload', 'params', 'query', 'options', 'command', 'dto'];

/**
 * What pino replaces with `[redacted]` before a line is written. Nothing in the service logs a
 * request body or its credentials; these paths make sure a later `logger.info({ req })`, an
 * error carrying the body that failed to parse (`err.body`), or a field named like a secret cannot
 * either. The reset code travels in request bodies only (`{code, password}`), which are redacted
 * whole: `code` itself stays readable elsewhere, since errors (`err.code`, `ECONNREFUSED`, SQLSTATE)
 * and exit codes use it. `X-App-Id` is not a secret and stays.
 */
export const REDACTED_PATHS: readonly string[] = [
  // Credentials in headers, as a header object or a request/response carrying one.
  'authorization',
  'cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'request.headers.authorization',
  'request.headers.cookie',
  'res.headers["set-cookie"]',
  'err.config.headers.authorization',
  // Bodies: never logged.
  'body',
  'req.body',
  'request.body',
  'err.body',
  'error.body',
  'err.rawBody',
  ...SECRET_FIELDS,
  ...HOLDERS.flatMap((holder) => SECRET_FIELDS.map((field) => `${holder}.${field}`)),
];

export const REDACTION: NonNullable<LoggerOptions['redact']> = { paths: [...REDACTED_PATHS], censor: '[redacted]' };
