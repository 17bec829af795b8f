import pg from 'pg';
import { testServerUrl } from '@rc/shared-infra-mikro-orm/testing';
import { CuttableProxy } from './support/cuttable-proxy.js';
import { startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

// The database goes away under a running API, then comes back. The API reaches PostgreSQL through
// a TCP proxy the test cuts: every connection ends at once (queries in flight fail, idle pooled
// connections die) and new connections are refused until the proxy listens again. And an
// administrator ends the API's connections (pg_terminate_backend) while a request waits on one.

const APP_ID = 'outage-test-app';

describe('the database going away under a running API', () => {
  let proxy: CuttableProxy;
  let api: TestApi;

  beforeAll(async () => {
    const server = new URL(testServerUrl());
    proxy = new CuttableProxy(server.hostname, Number(server.port || 5432));
    const port = await proxy.start();
    const throughProxy = new URL(server);
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(port);
    api = await startTestApi({ DEMO_DATA: 'false', APP_IDS: APP_ID }, {}, { url: throughProxy.toString() });
  }, 120_000);
  afterAll(async () => {
    await proxy?.restore();
    await api?.close();
    await proxy?.close();
  });

  const guides = () => api.request('GET', '/guides?limit=1');
  const logIn = () => api.request('POST', '/user/token', { appId: APP_ID, body: { email: 'nobody@example.com', password: 'not the password' } });
  const ready = () => api.request('GET', '/health/ready');

  /** Repeats `request` until it answers `status`, for at most `ms`; returns the last answer. */
  async function until(status: number, request: () => Promise<ApiResponse>, ms = 30_000): Promise<ApiResponse> {
    const deadline = Date.now() + ms;
    for (;;) {
      const res = await request();
      if (res.status === status || Date.now() > deadline) return res;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('answers 503 with Retry-After and the error envelope while it is away, readiness 503 too, and 200 once it is back', async () => {
    expect((await guides()).status).toBe(200);
    expect((await logIn()).status).toBe(401);
    expect((await ready()).status).toBe(200);

    await proxy.cut();
    try {
      const answers = [await guides(), await logIn(), await api.request('GET', '/guides/1'), await api.request('GET', '/categories')];
      for (const res of answers) {
        expect({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body }).toEqual({
          status: 503,
          retryAfter: '5',
          body: { error: true, message: 'Service temporarily unavailable' },
        });
        expect(res.headers.get('content-type')).toBe('application/json');
        // Nothing of the failure reaches the client.
        expect(res.text).not.toMatch(/ECONN|terminat|127\.0\.0\.1|postgres|pool|timeout/i);
      }
      // Each is logged once, at error level, with its request id.
      for (const res of answers) {
        const id = res.headers.get('x-request-id');
        const lines = api.logs.filter((l) => l['requestId'] === id && l['level'] === 50);
        expect(lines).toEqual([expect.objectContaining({ msg: 'request failed: the database is unavailable', status: 503 })]);
      }

      const notReady = await until(503, ready);
      expect(notReady.status).toBe(503);
      expect(notReady.body).toMatchObject({ error: true, status: 'error', details: { database: { status: 'down' } } });
      // The process itself lives on.
      expect((await api.request('GET', '/health/live')).status).toBe(200);
    } finally {
      await proxy.restore();
    }

    expect((await until(200, guides)).status).toBe(200);
    expect((await until(401, logIn)).status).toBe(401);
    expect((await until(200, ready)).status).toBe(200);
  }, 120_000);

  it('answers 503 to a request whose connection an administrator terminates under it (57P01), then 401 again', async () => {
    // A direct superuser connection to the test's database (not through the proxy).
    const direct = new URL(api.db.url);
    const server = new URL(testServerUrl());
    direct.hostname = server.hostname;
    direct.port = server.port;
    const admin = new pg.Client({ connectionString: direct.toString() });
    await admin.connect();
    try {
      expect((await until(401, logIn)).status).toBe(401);
      // The login's user lookup waits behind this lock, holding its connection.
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      const pending = logIn();
      let waiting: number[] = [];
      for (let i = 0; i < 200 && !waiting.length; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const { rows } = await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
        );
        waiting = rows.map((r) => r.pid);
      }
      expect(waiting.length).toBeGreaterThan(0);
      await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [waiting]);
      const res = await pending;
      expect({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body }).toEqual({
        status: 503,
        retryAfter: '5',
        body: { error: true, message: 'Service temporarily unavailable' },
      });
      const line = api.logs.find((l) => l['requestId'] === res.headers.get('x-request-id') && l['level'] === 50);
      expect(line).toMatchObject({ msg: 'request failed: the database is unavailable', err: expect.objectContaining({ code: '57P01' }) });
    } finally {
      await admin.query('ROLLBACK').catch(() => undefined);
      await admin.end();
    }
    expect((await until(401, logIn)).status).toBe(401);
  }, 60_000);
});
