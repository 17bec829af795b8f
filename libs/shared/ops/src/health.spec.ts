import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import { HealthCheckService, HealthIndicatorService, TerminusModule, type MikroOrmHealthIndicator } from '@nestjs/terminus';
import { pino } from 'pino';
import { Probes, type BackgroundWorker } from './health.js';

describe('Probes', () => {
  let health: HealthCheckService;
  let indicators: HealthIndicatorService;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [TerminusModule.forRoot({ logger: false })] }).compile();
    health = moduleRef.get(HealthCheckService);
    indicators = moduleRef.get(HealthIndicatorService);
  });

  function probes(options: { databaseUp?: () => boolean; pending?: () => Promise<string[]>; workers?: BackgroundWorker[] } = {}) {
    const lines: Record<string, unknown>[] = [];
    const database = {
      pingCheck: (key: string) =>
        indicators
          .check(key)
          .attempt(async () => {
            if (!(options.databaseUp ?? (() => true))()) throw new Error('connection refused');
          })
          .withTimeout(50),
    } as unknown as MikroOrmHealthIndicator;
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const pending = options.pending ?? (async () => []);
    return { probes: new Probes(health, indicators, database, pending, options.workers ?? [], logger, { databaseTimeoutMs: 50, migrationsTimeoutMs: 50 }), lines };
  }

  it('is live while the process answers', async () => {
    const { probes: p } = probes({ databaseUp: () => false });
    expect(await p.live()).toEqual({ status: 200, body: expect.objectContaining({ status: 'ok', details: { process: expect.objectContaining({ status: 'up' }) } }) });
  });

  it('is ready when the database answers, no migration is pending and every worker runs', async () => {
    const { probes: p } = probes({ workers: [{ name: 'relay', running: () => true }] });
    expect(await p.ready()).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'ok', details: { database: expect.objectContaining({ status: 'up' }), migrations: expect.objectContaining({ status: 'up', pending: 0 }), workers: { status: 'up', relay: 'running' } } }),
    });
  });

  it('is 503 naming what is down, and logs the transitions only', async () => {
    let up = false;
    let running = false;
    const { probes: p, lines } = probes({ databaseUp: () => up, workers: [{ name: 'relay', running: () => running }, { name: 'scheduler', running: () => true }] });
    const first = await p.ready();
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({
      error: true,
      message: 'Not ready: database, workers',
      status: 'error',
      details: { database: { status: 'down', message: 'connection refused' }, workers: { status: 'down', relay: 'stopped', scheduler: 'running' } },
    });
    await p.ready();
    up = running = true;
    expect((await p.ready()).status).toBe(200);
    await p.ready();
    expect(lines.map((l) => l['msg'])).toEqual(['not ready', 'ready']);
  });

  it('is not ready while a migration is pending; once none is, it no longer asks', async () => {
    let asked = 0;
    let pending = ['20990101000000-next'];
    const { probes: p } = probes({
      pending: async () => {
        asked++;
        return pending;
      },
    });
    const waiting = await p.ready();
    expect(waiting.status).toBe(503);
    expect(waiting.body['details']).toMatchObject({ migrations: { status: 'down', message: '1 pending: 20990101000000-next' } });
    pending = [];
    expect((await p.ready()).status).toBe(200);
    expect((await p.ready()).status).toBe(200);
    expect(asked).toBe(2);
  });

  it('is not ready when the database does not answer in time', async () => {
    const { probes: p } = probes();
    const slow = {
      pingCheck: (key: string) =>
        indicators
          .check(key)
          .attempt(() => new Promise((resolve) => setTimeout(resolve, 500)))
          .withTimeout(20),
    } as unknown as MikroOrmHealthIndicator;
    Object.assign(p, { database: slow });
    const answer = await p.ready();
    expect(answer.status).toBe(503);
    expect(answer.body['details']).toMatchObject({ database: { status: 'down', message: 'timeout of 20ms exceeded' } });
  });

  it('turns 503 for good once a shutdown begins, whatever else says', async () => {
    const { probes: p } = probes();
    expect((await p.ready()).status).toBe(200);
    p.beginShutdown();
    expect(p.isShuttingDown).toBe(true);
    expect(await p.ready()).toEqual({
      status: 503,
      body: { error: true, message: 'Not ready: shutdown', status: 'error', info: {}, details: { shutdown: { status: 'down', message: 'the server is shutting down' } } },
    });
    expect((await p.live()).status).toBe(200);
  });
});
