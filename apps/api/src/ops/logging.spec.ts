import type { IncomingMessage } from 'node:http';
import { createLogger, NestPinoLogger } from '../logger.js';
import { assignRequestId, currentRequestId, runInRequest } from '@rc/shared-ops';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { lines, logger };
}

describe('the request context in the log', () => {
  it('gives every line logged while a request is handled its id, through promises and timers, and the Nest bridge', async () => {
    const { lines, logger } = capture();
    const bridge = new NestPinoLogger(logger);
    let finished!: Promise<void>;
    runInRequest(
      'req-42',
      () => {
        logger.info('at once');
        bridge.warn('from Nest', 'Ctx');
        finished = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          logger.debug({ step: 2 }, 'later');
          expect(currentRequestId()).toBe('req-42');
        })();
      },
      null,
      null,
    );
    await finished;
    logger.info('outside');
    expect(lines.map((l) => [l['msg'], l['requestId']])).toEqual([
      ['at once', 'req-42'],
      ['from Nest', 'req-42'],
      ['later', 'req-42'],
      ['outside', undefined],
    ]);
    expect(currentRequestId()).toBeUndefined();
  });

  it('keeps a request id a line sets itself (the request log names it explicitly)', () => {
    const { lines, logger } = capture();
    runInRequest('outer', () => logger.info({ requestId: 'explicit' }, 'line'), null, null);
    expect(lines[0]).toMatchObject({ requestId: 'explicit' });
  });

  it("keeps a caller's well-formed X-Request-Id, else makes one and writes it to the request", () => {
    const req = (id?: string) => ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as IncomingMessage;
    expect(assignRequestId(req('abc-123.x:y'))).toBe('abc-123.x:y');
    for (const bad of [undefined, '', 'has space', 'a'.repeat(129), 'ünï']) {
      const r = req(bad);
      const id = assignRequestId(r);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers['x-request-id']).toBe(id);
    }
  });
});

describe('redaction', () => {
  it('never writes credentials, bodies or secret-named fields; keeps the app id and error codes', () => {
    const { lines, logger } = capture();
    const parseError = Object.assign(new Error('Unexpected end of JSON input'), { body: '{"password": "hunter2-hunter2"', code: 'E_JSON' });
    logger.info({ req: { method: 'POST', headers: { authorization: 'api tok-abcdef', cookie: 'sid=s3cr3t', 'x-app-id': 'demo-app-id' } } }, 'a request');
    logger.info({ headers: { authorization: 'Bearer tok-ghijkl' } }, 'headers');
    logger.error({ err: parseError }, 'parse failed');
    logger.info({ body: { email: 'a@example.com', password: 'hunter2-hunter2', code: 'reset-code-xyz' } }, 'a body');
    logger.info({ password: 'pw-top-level', user: { password: 'pw-nested', authToken: 'tok-mnopqr' }, token: 'tok-stuvwx', resetCode: 'reset-code-abc' }, 'fields');
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    for (const secret of ['tok-abcdef', 's3cr3t', 'tok-ghijkl', 'hunter2', 'reset-code-xyz', 'pw-top-level', 'pw-nested', 'tok-mnopqr', 'tok-stuvwx', 'reset-code-abc']) {
      expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
    }
    expect(lines[0]).toMatchObject({ req: { headers: { authorization: '[redacted]', 'x-app-id': 'demo-app-id' } } });
    expect(lines[2]).toMatchObject({ err: { message: 'Unexpected end of JSON input', code: 'E_JSON', body: '[redacted]' } });
    expect(lines[3]).toMatchObject({ body: '[redacted]' });
  });
});
