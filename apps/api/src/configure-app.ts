import type { NestExpressApplication } from '@nestjs/platform-express';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { jsonBody, methodNotAllowed, requestIdAndLog } from './http/middleware.js';
import { buildOpenApiDocument, serveSwagger } from './http/swagger.js';

export const API_PREFIX = 'api/2.0';

/**
 * Everything around the routes: request id and log, CORS, JSON bodies, 405 handling, hot paths, the
 * `/api/2.0` prefix and Swagger UI. Shared by the production start and the end-to-end tests.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig, logger: Logger, hotPaths: readonly RequestHandler[] = []): void {
  const express = app.getHttpAdapter().getInstance();
  express.disable('x-powered-by');
  express.set('trust proxy', config.trustProxy);
  express.set('query parser', 'simple');

  app.use(requestIdAndLog(logger));
  app.enableCors({
    origin: config.corsOrigins.includes('*') ? '*' : [...config.corsOrigins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'X-App-Id', 'Content-Type', 'X-Request-Id', 'If-None-Match'],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'ETag', 'Allow'],
    optionsSuccessStatus: 204,
    maxAge: 600,
  });
  app.use(methodNotAllowed(() => express.router));
  app.use(jsonBody());
  // Handlers that answer their requests ahead of the framework (or pass them on).
  for (const handler of hotPaths) app.use(handler);
  app.setGlobalPrefix(API_PREFIX);
  serveSwagger(app, buildOpenApiDocument(app, config.publicBaseUrl));
}
