import type { LoggerOptions } from 'pino';

/** Fields that hold a credential wherever they appear: in a logged object or one level below it. */
const SECRET_FIELDS = ['password', 'newPassword', 'currentPassword', 'adminPassword', 'authToken', 'token', 'accessToken', 'refreshToken', 'resetCode', 'secret', 'apiKey'];

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
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
];

export const REDACTION: NonNullable<LoggerOptions['redact']> = { paths: [...REDACTED_PATHS], censor: '[redacted]' };
