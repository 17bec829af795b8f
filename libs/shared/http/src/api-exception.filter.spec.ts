import { BadRequestException, NotFoundException, type ArgumentsHost } from '@nestjs/common';
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
  ValidationFailedError,
  InvalidParameterError,
} from '@rc/shared-kernel';
import type { Logger } from 'pino';
import { DriverException } from '@mikro-orm/core';
import { ApiExceptionFilter, DATABASE_RETRY_AFTER_SECONDS, STATUS_BY_CATEGORY, statusOf } from './api-exception.filter.js';
import { markXmlRequest } from './xml/xml-response.js';

// One concrete error per category, as a bounded context would define it.
class TestInvalidInput extends InvalidInputError {
  readonly code = 'TEST.INVALID_INPUT';
}
class TestAuthentication extends AuthenticationError {
  readonly code = 'TEST.AUTHENTICATION';
}
class TestPermissionDenied extends PermissionDeniedError {
  readonly code = 'TEST.PERMISSION_DENIED';
}
class TestPrivilegeRequired extends PermissionDeniedError {
  readonly code = 'TEST.PRIVILEGE_REQUIRED';
  override readonly requiredPrivileges = ['Admin', 'Moderator'];
}
class TestNotFound extends NotFoundError {
  readonly code = 'TEST.NOT_FOUND';
}
class TestOperationNotAllowed extends OperationNotAllowedError {
  readonly code = 'TEST.OPERATION_NOT_ALLOWED';
}
class TestConflict extends ConflictError {
  readonly code = 'TEST.CONFLICT';
}
class TestRuleViolation extends RuleViolationError {
  readonly code = 'TEST.RULE_VIOLATION';
}
class TestRateLimited extends RateLimitedError {
  readonly code = 'TEST.RATE_LIMITED';
}
class TestUnavailable extends ServiceUnavailableError {
  readonly code = 'TEST.UNAVAILABLE';
}
/** A domain error outside every category. */
class TestUncategorised extends DomainError {
  readonly code = 'TEST.UNCATEGORISED';
}

type Category = (typeof STATUS_BY_CATEGORY)[number][0];

/** The expected mapping, written out independently of the table under test. */
const EXPECTED: ReadonlyArray<readonly [string, Category, () => DomainError, number]> = [
  ['InvalidInputError', InvalidInputError, () => new TestInvalidInput('bad parameter'), 400],
  ['AuthenticationError', AuthenticationError, () => new TestAuthentication('no token'), 401],
  ['PermissionDeniedError', PermissionDeniedError, () => new TestPermissionDenied('not yours'), 403],
  ['NotFoundError', NotFoundError, () => new TestNotFound('no such thing'), 404],
  ['OperationNotAllowedError', OperationNotAllowedError, () => new TestOperationNotAllowed('not on this one'), 405],
  ['ConflictError', ConflictError, () => new TestConflict('stale revision'), 409],
  ['RuleViolationError', RuleViolationError, () => new TestRuleViolation('broken rule', [{ field: 'title', message: 'Too long' }]), 422],
  ['RateLimitedError', RateLimitedError, () => new TestRateLimited('slow down', 60), 429],
  ['ServiceUnavailableError', ServiceUnavailableError, () => new TestUnavailable('busy', 1), 503],
];

interface FakeResponse {
  statusCode: number;
  headersSent: boolean;
  headers: Record<string, string>;
  body: string | undefined;
  ended: boolean;
  req: FakeRequest;
  status(code: number): FakeResponse;
  setHeader(name: string, value: string | number): FakeResponse;
  end(chunk?: string): FakeResponse;
}

interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  query: Record<string, unknown>;
  res?: FakeResponse;
  header(name: string): string | undefined;
}

/** The smallest Express-like request/response pair the filter and `sendJson` use. */
function fakeHttp(options: { headersSent?: boolean; query?: Record<string, unknown>; xml?: boolean } = {}): { host: ArgumentsHost; res: FakeResponse } {
  const req: FakeRequest = {
    method: 'POST',
    path: '/api/2.0/things',
    headers: { 'x-request-id': 'req-1' },
    query: options.query ?? {},
    header(name) {
      return this.headers[name.toLowerCase()];
    },
  };
  const res: FakeResponse = {
    statusCode: 200,
    headersSent: options.headersSent ?? false,
    headers: {},
    body: undefined,
    ended: false,
    req,
    status(code) {
      this.statusCode = code;
      return this;
    },
    setHeader(name, value) {
      this.headers[name.toLowerCase()] = String(value);
      return this;
    },
    end(chunk) {
      this.body = chunk;
      this.ended = true;
      return this;
    },
  };
  req.res = res;
  if (options.xml) markXmlRequest(req);
  const http = { getRequest: () => req, getResponse: () => res, getNext: () => () => undefined };
  const host = { switchToHttp: () => http, getType: () => 'http', getArgs: () => [req, res], getArgByIndex: (i: number) => [req, res][i] };
  return { host: host as unknown as ArgumentsHost, res };
}

/** A logger that records what it was given. */
function fakeLogger(): { logger: Logger; errors: unknown[][]; others: unknown[][] } {
  const errors: unknown[][] = [];
  const others: unknown[][] = [];
  const other = (...args: unknown[]) => others.push(args);
  const logger = { error: (...args: unknown[]) => errors.push(args), warn: other, info: other, debug: other, fatal: other, trace: other };
  return { logger: logger as unknown as Logger, errors, others };
}

function run(exception: unknown, options?: Parameters<typeof fakeHttp>[0]) {
  const { logger, errors } = fakeLogger();
  const { host, res } = fakeHttp(options);
  new ApiExceptionFilter(logger).catch(exception, host);
  const body = res.body === undefined ? undefined : JSON.parse(res.body);
  return { res, body, errors };
}

describe('STATUS_BY_CATEGORY / statusOf', () => {
  it.each(EXPECTED.map(([name, , make, status]) => [name, make, status] as const))('maps a %s subclass to its status', (_name, make, status) => {
    expect(statusOf(make())).toBe(status);
  });

  it('has one row per category above, each with the expected status (no row untested)', () => {
    expect(STATUS_BY_CATEGORY).toHaveLength(EXPECTED.length);
    for (const [category, status] of STATUS_BY_CATEGORY) {
      const expected = EXPECTED.find(([, c]) => c === category);
      expect({ category: category.name, status: expected ? status : 'untested row' }).toEqual({ category: category.name, status: expected?.[3] });
    }
  });

  it('holds exactly the statuses 400, 401, 403, 404, 405, 409, 422, 429 and 503', () => {
    const statuses = STATUS_BY_CATEGORY.map(([, status]) => status);
    expect([...statuses].sort((a, b) => a - b)).toEqual([400, 401, 403, 404, 405, 409, 422, 429, 503]);
    expect(new Set(statuses).size).toBe(statuses.length);
  });

  it('maps the kernel generic errors through their categories', () => {
    expect(statusOf(new ValidationFailedError('bad', [{ field: 'x', message: 'bad' }]))).toBe(422);
    expect(statusOf(new InvalidParameterError('limit must be an integer'))).toBe(400);
  });

  it('maps a domain error outside every category to 500', () => {
    expect(statusOf(new TestUncategorised('who knows'))).toBe(500);
  });
});

describe('ApiExceptionFilter.catch', () => {
  it('answers a RuleViolationError subclass with 422 and the violations as errors', () => {
    const violations = [
      { field: 'title', message: 'Too long' },
      { field: 'steps', message: 'Step text is empty', index: 2 },
    ];
    const { res, body, errors } = run(new TestRuleViolation('Too long; Step text is empty', violations));
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toBe('application/json');
    expect(body).toEqual({ error: true, message: 'Too long; Step text is empty', errors: violations });
    expect(errors).toHaveLength(0);
  });

  it('answers a PermissionDeniedError subclass with 403 and its requiredPrivileges', () => {
    const { res, body } = run(new TestPrivilegeRequired('Insufficient privileges'));
    expect(res.statusCode).toBe(403);
    expect(body).toEqual({ error: true, message: 'Insufficient privileges', requiredPrivileges: ['Admin', 'Moderator'] });
  });

  it('leaves requiredPrivileges out of a 403 that names none', () => {
    const { res, body } = run(new TestPermissionDenied('Private content'));
    expect(res.statusCode).toBe(403);
    expect(body).toEqual({ error: true, message: 'Private content' });
  });

  it('answers a RateLimitedError subclass with 429 and a Retry-After header', () => {
    const { res, body } = run(new TestRateLimited('Rate limit exceeded. Please try again later.', 120));
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('120');
    expect(body).toEqual({ error: true, message: 'Rate limit exceeded. Please try again later.' });
  });

  it.each(EXPECTED.map(([name, , make, status]) => [name, make, status] as const))('answers a %s subclass with its status and message', (_name, make, status) => {
    const error = make();
    const { res, body, errors } = run(error);
    expect(res.statusCode).toBe(status);
    expect(body).toMatchObject({ error: true, message: error.message });
    expect(errors).toHaveLength(status >= 500 ? 1 : 0); // a 503 is logged, a 4xx is not
  });

  it('answers a ServiceUnavailableError subclass with 503, its Retry-After and message, and logs it once', () => {
    const { res, body, errors } = run(new TestUnavailable('The service is busy. Please try again shortly.', 2));
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(body).toEqual({ error: true, message: 'The service is busy. Please try again shortly.' });
    expect(errors).toHaveLength(1);
  });

  /** A driver error as node-postgres raises it, wrapped as MikroORM wraps it. */
  const driverError = (message: string, fields: Record<string, unknown> = {}) => new DriverException(Object.assign(new Error(message), fields));

  it.each([
    ['an admin shutdown (57P01, pg_terminate_backend)', driverError('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' })],
    ['a crash shutdown (57P02)', driverError('terminating connection because of crash of another server process', { code: '57P02' })],
    ['a server that cannot take connections yet (57P03)', driverError('the database system is starting up', { code: '57P03' })],
    ['too many connections (53300)', driverError('sorry, too many clients already', { code: '53300' })],
    ['a connection exception (class 08)', driverError('connection failure', { code: '08006' })],
    ['a refused connection', driverError('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', errno: -111, address: '127.0.0.1', port: 5432 })],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a connection ended under a query', driverError('Connection terminated unexpectedly')],
    ['a pool that found no connection in time', new Error('timeout exceeded when trying to connect')],
    ['one wrapped as the cause of another error', new Error('could not load the guide', { cause: driverError('Connection terminated unexpectedly') })],
    ['an AggregateError of refused connections', Object.assign(new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], 'connect failed'), {})],
  ])('answers %s with 503, Retry-After and the generic envelope, and logs it once with the request id', (_case, error) => {
    const { res, body, errors } = run(error);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(body).toEqual({ error: true, message: 'Service temporarily unavailable' });
    expect(res.body).not.toMatch(/ECONN|terminat|5432|timeout|administrator|too many/i);
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toMatchObject({ err: error, requestId: 'req-1', status: 503 });
    expect(errors[0]![1]).toBe('request failed: the database is unavailable');
  });

  it.each([
    ['a unique violation', driverError('duplicate key value violates unique constraint "users_email_key"', { code: '23505' })],
    ['a syntax error', driverError('syntax error at or near "SELEC"', { code: '42601' })],
    ['a statement timeout', driverError('canceling statement due to statement timeout', { code: '57014' })],
    ['an error whose SQLSTATE is not about the connection, quoting input that reads like one', driverError('invalid input syntax for type integer: "Connection terminated"', { code: '22P02' })],
    ['a plain TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ])('keeps %s a 500 without Retry-After', (_case, error) => {
    const { res, body, errors } = run(error);
    expect(res.statusCode).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(body).toEqual({ error: true, message: 'Internal server error' });
    expect(errors).toHaveLength(1);
  });

  it('answers the body parser\'s invalid-JSON error with 400 and a fixed message', () => {
    const parserError = Object.assign(new SyntaxError('Unexpected token } in JSON at position 12'), { type: 'entity.parse.failed', status: 400, expose: true, body: '{"a": }' });
    const { res, body, errors } = run(parserError);
    expect(res.statusCode).toBe(400);
    expect(body).toEqual({ error: true, message: 'Invalid JSON in the request body' });
    expect(errors).toHaveLength(0);
  });

  it('answers plain objects shaped like body-parser errors: entity.parse.failed → 400, entity.too.large → 413', () => {
    const parse = run({ type: 'entity.parse.failed', status: 400 });
    expect(parse.res.statusCode).toBe(400);
    expect(parse.body).toEqual({ error: true, message: 'Invalid JSON in the request body' });

    const tooLarge = run({ type: 'entity.too.large', status: 413 });
    expect(tooLarge.res.statusCode).toBe(413);
    expect(tooLarge.body).toEqual({ error: true, message: expect.any(String) });
    expect(tooLarge.errors).toHaveLength(0);
  });

  it('answers a plain Error with 500 "Internal server error", hides its detail and logs it', () => {
    const secret = new Error('secret detail');
    const { res, body, errors } = run(secret);
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toBe('application/json');
    expect(body).toEqual({ error: true, message: 'Internal server error' });
    expect(res.body).not.toContain('secret detail');
    expect(res.body).not.toContain('stack');
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toMatchObject({ err: secret, requestId: 'req-1', method: 'POST', path: '/api/2.0/things' });
  });

  it('answers anything else thrown (a string, null) with 500 and logs it', () => {
    for (const thrown of ['a string', null, undefined, 42]) {
      const { res, body, errors } = run(thrown);
      expect(res.statusCode).toBe(500);
      expect(body).toEqual({ error: true, message: 'Internal server error' });
      expect(errors).toHaveLength(1);
    }
  });

  // Its body is left out on purpose: the filter currently sends the error's own message with the
  // 500 (a bug reported to the owner); the generic message is the contract.
  it('answers an uncategorised domain error with 500 and logs it', () => {
    const { res, body, errors } = run(new TestUncategorised('internal detail'));
    expect(res.statusCode).toBe(500);
    expect(body).toEqual({ error: true, message: 'Internal server error' });
    expect(errors).toHaveLength(1);
  });

  it('answers Nest\'s NotFoundException with 404 "Endpoint not found" and other HttpExceptions with their status', () => {
    const notFound = run(new NotFoundException('Cannot GET /api/2.0/nope'));
    expect(notFound.res.statusCode).toBe(404);
    expect(notFound.body).toEqual({ error: true, message: 'Endpoint not found' });

    const badRequest = run(new BadRequestException('Bad thing'));
    expect(badRequest.res.statusCode).toBe(400);
    expect(badRequest.body).toEqual({ error: true, message: 'Bad thing' });
  });

  it('indents the error body when the request has ?pretty', () => {
    const { res } = run(new TestNotFound('Guide not found'), { query: { pretty: '' } });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('\n  ');
  });

  it('only ends a response whose headers are already sent', () => {
    const { res } = run(new Error('late failure'), { headersSent: true });
    expect(res.ended).toBe(true);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBeUndefined();
    expect(res.headers).toEqual({});
  });
});

describe('ApiExceptionFilter.catch on a request answered in XML', () => {
  function runXml(exception: unknown, query: Record<string, unknown> = {}) {
    const { logger, errors } = fakeLogger();
    const { host, res } = fakeHttp({ xml: true, query });
    new ApiExceptionFilter(logger).catch(exception, host);
    return { res, errors };
  }

  it.each(EXPECTED.map(([name, , make, status]) => [name, make, status] as const))('answers a %s subclass in XML with the same status', (_name, make, status) => {
    const error = make();
    const { res } = runXml(error);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toBe('application/xml');
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><error><message>/);
    expect(res.body).toContain(`<message>${error.message}</message>`);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body!)));
  });

  it('carries the violations, the required privileges and Retry-After, and escapes the message', () => {
    const violation = runXml(new TestRuleViolation('Too <long> & wrong', [{ field: 'title', message: 'Too long', index: 1 }]));
    expect(violation.res.statusCode).toBe(422);
    expect(violation.res.body).toContain('<message>Too &lt;long&gt; &amp; wrong</message><errors><field name="title" index="1">Too long</field></errors>');
    expect(runXml(new TestPrivilegeRequired('Insufficient privileges')).res.body).toContain('<requiredPrivileges><privilege>Admin</privilege><privilege>Moderator</privilege></requiredPrivileges>');
    expect(runXml(new TestRateLimited('slow down', 30)).res.headers['retry-after']).toBe('30');
  });

  it('answers an unexpected failure with a generic XML 500 and logs the detail', () => {
    const { res, errors } = runXml(new Error('secret detail'));
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toBe('application/xml');
    expect(res.body).toContain('<message>Internal server error</message>');
    expect(res.body).not.toContain('secret detail');
    expect(errors).toHaveLength(1);
  });

  it('indents with ?pretty', () => {
    expect(runXml(new TestNotFound('Guide not found'), { pretty: '' }).res.body).toContain('\n  <message>Guide not found</message>');
  });
});
