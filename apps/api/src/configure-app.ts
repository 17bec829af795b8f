import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors, { type CorsOptions } from 'cors';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { ApiExpressAdapter, jsonBody, methodNotAllowed, rejectNulInUrl, requestIdAndLog, stampRequest } from '@rc/shared-http';
import { buildOpenApiDocument, serveSwagger } from './http/swagger.js';
import { securityHeadersMiddleware, securityOf } from './security/security-headers.js';
import { CONSISTENCY_HEADER } from './replicas/read-consistency.js';

export const API_PREFIX = 'api/2.0';

export function corsOptions(config: AppConfig) {
  return {
    origin: config.corsOrigins.includes('*') ? '*' : [...config.corsOrigins] as string[],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'X-App-Id', 'Content-Type', 'X-Request-Id', 'If-None-Match', 'If-Modified-Since', 'If-Match', 'Range', 'If-Range', CONSISTENCY_HEADER],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'ETag', 'Allow', 'Content-Range', 'Accept-Ranges', 'Last-Modified', 'Content-Disposition', CONSISTENCY_HEADER, 'X-Archive-Until'],
    optionsSuccessStatus: 204,
    maxAge: 600,
  } satisfies CorsOptions;
}

/**
 * What the middleware ahead of the routes sets on a response (security headers, request id and
 * log, CORS), for requests answered before Express sees them.
 */
export function responsePreamble(config: AppConfig, logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  const { apply: securityHeaders } = securityOf(config);
  const stamp = stampRequest(logger);
  const applyCors = cors(corsOptions(config));
  const done = () => undefined;
  return (req, res) => {
    securityHeaders(req, res);
    stamp(req, res);
    applyCors(req, res, done);
  };
}

/**
 * Everything around the routes: security headers, request id and log, CORS, JSON bodies, 405
 * handling, the `/api/2.0` prefix and Swagger UI. Shared by the production start and the
 * end-to-end tests.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig, logger: Logger): void {
  const express = app.getHttpAdapter().getInstance();
  express.disable('x-powered-by');
  // The rule the answers ahead of Express follow too (Express takes a function as it is).
  express.set('trust proxy', securityOf(config).trust);
  express.set('query parser', 'simple');

  app.use(securityHeadersMiddleware(config));
  app.use(requestIdAndLog(logger));
  app.enableCors(corsOptions(config));
  const adapter = app.getHttpAdapter();
  if (!(adapter instanceof ApiExpressAdapter)) throw new Error('configureApp needs the ApiExpressAdapter (its route table answers the 405s)');
  app.use(methodNotAllowed(adapter.routes));
  app.use(rejectNulInUrl());
  // The one route whose body is not JSON: an image upload streams the raw bytes to the store.
  app.use(jsonBody({ rawBodyRoutes: ['images', 'videos', 'documents'].map((kind) => ({ method: 'POST', path: `/${API_PREFIX}/user/media/${kind}` })) }));
  app.setGlobalPrefix(API_PREFIX);
  serveSwagger(app, buildOpenApiDocument(app, config.publicBaseUrl));
}
