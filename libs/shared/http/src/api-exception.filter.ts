import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import {
  AuthenticationError,
  ConflictError,
  DomainError,
  InvalidInputError,
  NotFoundError,
  OperationNotAllowedError,
  PermissionDeniedError,
  RateLimitedError,
  RuleViolationError,
  ServiceUnavailableError,
} from '@rc/shared-kernel';
import { isDatabaseUnavailable } from '@rc/shared-infra-mikro-orm';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { ConflictBodies } from './conflict-bodies.js';
import { sendError, sendJson, type ErrorBody } from './respond.js';
import { answersInXml, sendXmlError } from './xml/xml-response.js';
import type { ApiRequest } from './route-needs.js';

type ErrorCategory = abstract new (...args: never[]) => DomainError;

/** The one place where a domain error category becomes an HTTP status. */
export const STATUS_BY_CATEGORY: ReadonlyArray<readonly [ErrorCategory, number]> = [
  [InvalidInputError, 400],
  [AuthenticationError, 401],
  [PermissionDeniedError, 403],
  [NotFoundError, 404],
  [OperationNotAllowedError, 405],
  [ConflictError, 409],
  [RuleViolationError, 422],
  [RateLimitedError, 429],
  [ServiceUnavailableError, 503],
];

/** Seconds a client is told to wait (`Retry-After`) when the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function statusOf(error: DomainError): number {
  return STATUS_BY_CATEGORY.find(([category]) => error instanceof category)?.[1] ?? 500;
}

/** Errors raised by Express middleware (body parser) before a route runs. */
interface MiddlewareError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/**
 * Turns every failure into the API's error body. Domain errors map through the table above;
 * framework errors (unknown route, unreadable JSON, oversized body) keep their meaning; a database
 * that cannot be reached or dropped the connection is a 503 with `Retry-After`; anything else is a
 * 500. The detail of a 5xx goes to the log only, once, at error level with the request id.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly conflicts?: ConflictBodies,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    if (res.headersSent) {
      res.end();
      return;
    }
    if (exception instanceof ConflictError && this.conflicts) {
      // A revision conflict answers with the current version of the resource, as a GET would.
      try {
        const current = await this.conflicts.bodyFor(exception, req as ApiRequest);
        if (current !== undefined) return sendJson(res, 409, current);
      } catch (error) {
        this.logger.error({ err: error }, 'could not build the body of a conflict');
      }
    }
    const [status, body] = this.describe(exception, req);
    if (status >= 500) {
      const message = status === 503 && !(exception instanceof DomainError) ? 'request failed: the database is unavailable' : 'request failed';
      this.logger.error({ err: exception, requestId: req.headers['x-request-id'], method: req.method, path: req.path, status }, message);
    }
    // A request an XML-capable route answers in XML gets its error in XML, with the same status.
    if (answersInXml(req)) return sendXmlError(res, status, body);
    sendError(res, status, body);
  }

  private describe(exception: unknown, req: Request): [number, Omit<ErrorBody, 'error'>] {
    if (exception instanceof ServiceUnavailableError) {
      req.res?.setHeader('Retry-After', String(exception.retryAfterSeconds));
      return [503, { message: exception.message }];
    }
    if (exception instanceof DomainError && statusOf(exception) < 500) {
      const status = statusOf(exception);
      const body: Omit<ErrorBody, 'error'> = { message: exception.message };
      if (exception instanceof RuleViolationError) body.errors = exception.violations.map((v) => ({ ...v }));
      if (exception instanceof PermissionDeniedError && exception.requiredPrivileges.length) {
        body.requiredPrivileges = [...exception.requiredPrivileges];
      }
      if (exception instanceof RateLimitedError) req.res?.setHeader('Retry-After', String(exception.retryAfterSeconds));
      return [status, body];
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return [404, { message: 'Endpoint not found' }];
      if (status < 500) return [status, { message: httpMessage(exception) }];
      return [500, { message: 'Internal server error' }];
    }
    const mw = exception as MiddlewareError | null;
    if (mw && typeof mw === 'object') {
      if (mw.type === 'entity.parse.failed') return [400, { message: 'Invalid JSON in the request body' }];
      if (mw.type === 'entity.too.large') return [413, { message: 'Request body is larger than 1 MiB' }];
      if (mw.type === 'encoding.unsupported' || mw.type === 'charset.unsupported') {
        return [400, { message: 'Unsupported request body encoding' }];
      }
      const status = mw.status ?? mw.statusCode;
      if (status && status >= 400 && status < 500 && mw.expose) return [400, { message: 'Bad request' }];
    }
    if (exception instanceof URIError) return [400, { message: 'Malformed URL encoding' }];
    if (isDatabaseUnavailable(exception)) {
      req.res?.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return [503, { message: 'Service temporarily unavailable' }];
    }
    return [500, { message: 'Internal server error' }];
  }
}

function httpMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return typeof message === 'string' ? message : exception.message;
}
