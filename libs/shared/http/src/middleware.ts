import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { InvalidInputError } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import { jsonBodyDefect, RequestBodyRejectedError, verifyJsonBytes } from './json-body.js';
import { sendError } from './respond.js';
import type { RouteTable } from './route-table.js';

export const MAX_BODY_BYTES = 1024 * 1024;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * `X-Request-Id` on the response: the caller's (when well-formed) or a new one; the request is
 * logged with it when the response finishes. For plain Node requests (the hot paths ahead of
 * Express) as well as Express ones.
 */
export function stampRequest(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.headers['x-request-id'] = id;
    res.setHeader('X-Request-Id', id);
    if (!logger.isLevelEnabled('info')) return;
    const started = process.hrtime.bigint();
    // Read now: routers mounted at a prefix rewrite `req.url` while they handle the request.
    const path = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0];
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId: id, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
  };
}

/** `stampRequest` as Express middleware. */
export function requestIdAndLog(logger: Logger): RequestHandler {
  const stamp = stampRequest(logger);
  return (req, res, next) => {
    stamp(req, res);
    next();
  };
}

export interface RawBodyRoute {
  readonly method: string;
  /** The full path (prefix included), matched exactly (a trailing slash aside). */
  readonly path: string;
}

/**
 * Request bodies are JSON whatever the Content-Type says (clients of the original API often send
 * none). Errors (invalid JSON or a byte order mark → 400, too large → 413, nested deeper than
 * `MAX_JSON_DEPTH` or text that is not Unicode → 400) reach the exception filter, before any
 * route, guard or validation sees the body. `rawBodyRoutes` are left to read the request themselves.
 */
export function jsonBody(options: { readonly rawBodyRoutes?: readonly RawBodyRoute[] } = {}): RequestHandler {
  const parse = express.json({ type: () => true, limit: MAX_BODY_BYTES, strict: false, verify: (_req, _res, bytes, encoding) => verifyJsonBytes(bytes, encoding) });
  const raw = options.rawBodyRoutes ?? [];
  return (req, res, next) => {
    // Routes that read the request stream themselves (uploads): their body is left untouched.
    const path = req.path.length > 1 ? req.path.replace(/\/$/, '') : req.path;
    if (raw.some((route) => route.method === req.method && route.path.toLowerCase() === path.toLowerCase())) return next();
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      const defect = jsonBodyDefect(req.body);
      next(defect === null ? undefined : new RequestBodyRejectedError(defect));
    });
  };
}

/** A request URL whose path or query holds a NUL character: no text column can store it. */
export class RequestUrlRejectedError extends InvalidInputError {
  readonly code = 'HTTP.URL_REJECTED';
  constructor() {
    super('The request URL contains a NUL character (%00)');
  }
}

/**
 * A NUL character (`%00`) anywhere in the URL is a 400 before any route sees it: PostgreSQL text
 * cannot hold one, so a path or query parameter carrying it could only fail later, as a 500.
 */
export function rejectNulInUrl(): RequestHandler {
  return (req, _res, next) => next(/%00|\0/.test(req.url) ? new RequestUrlRejectedError() : undefined);
}

/**
 * A known path asked with a method it does not have is a 405 with `Allow` (an unknown path stays
 * a 404). The routes are those the application registered (see RouteTable), read per request.
 */
export function methodNotAllowed(routes: RouteTable): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') return next();
    const allowed = routes.methodsOf(req.path);
    if (allowed.size === 0 || allowed.has(req.method) || (req.method === 'HEAD' && allowed.has('GET'))) return next();
    if (allowed.has('GET')) allowed.add('HEAD');
    allowed.add('OPTIONS');
    res.setHeader('Allow', [...allowed].sort().join(', '));
    sendError(res, 405, { message: `Method ${req.method} is not allowed on this endpoint` });
  };
}

/**
 * Installed after the routes: any path outside `/api/2.0` (another version, the site root) is a
 * JSON 404 too, and an error raised there a JSON 500, never Express's HTML pages.
 */
export function installFallbacks(app: { use(...handlers: unknown[]): unknown }, logger: Logger): void {
  app.use((_req: Request, res: Response) => sendError(res, 404, { message: 'Endpoint not found' }));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err: error, path: req.path }, 'request failed outside the API routes');
    if (!res.headersSent) sendError(res, 500, { message: 'Internal server error' });
  });
}
