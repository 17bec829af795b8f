import { GuideEventRelay } from '../src/events/guide-event-relay.js';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';
import { sample } from './support/prometheus.js';

// The operator endpoints over real HTTP: liveness and readiness (terminus), Prometheus metrics
// (prom-client), with the request metrics of the hot path and of Express.

const PROM_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

describe('operator endpoints', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  describe('GET /api/2.0/health/live', () => {
    it('answers 200 with terminus details, JSON, a request id, and needs no app id or token', async () => {
      const res = await api.request('GET', '/health/live');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toMatchObject({ status: 'ok', details: { process: { status: 'up', pid: process.pid } } });
    });

    it('carries the security headers every answer carries, though answered ahead of Express', async () => {
      for (const path of ['/health/live', '/health/ready', '/metrics']) {
        const res = await api.request('GET', path);
        expect({ path, nosniff: res.headers.get('x-content-type-options'), csp: res.headers.get('content-security-policy'), referrer: res.headers.get('referrer-policy') }).toEqual({
          path,
          nosniff: 'nosniff',
          csp: "default-src 'none';frame-ancestors 'none'",
          referrer: 'no-referrer',
        });
      }
    });

    it('indents with ?pretty, answers HEAD without a body', async () => {
      expect((await api.request('GET', '/health/live?pretty')).text).toContain('\n  "status": "ok"');
      const head = await api.request('HEAD', '/health/live');
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
    });

    it('is 405 with Allow for another method, and 404 outside the API prefix', async () => {
      const post = await api.request('POST', '/health/live');
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(post.body).toEqual({ error: true, message: 'Method POST is not allowed on this endpoint' });
      expect((await api.raw('GET', '/health/live')).status).toBe(404);
      expect((await api.raw('GET', '/health/ready')).status).toBe(404);
      expect((await api.raw('GET', '/metrics')).status).toBe(404);
    });
  });

  describe('GET /api/2.0/health/ready', () => {
    it('answers 200 when the database answers, no migration is pending and the background workers run', async () => {
      const res = await api.request('GET', '/health/ready');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'ok',
        info: expect.any(Object),
        error: {},
        details: {
          database: expect.objectContaining({ status: 'up' }),
          migrations: expect.objectContaining({ status: 'up', pending: 0 }),
          workers: { status: 'up', 'guide-event-relay': 'running' },
        },
      });
    });

    it('is 503 with the error envelope and the details while a background worker is stopped', async () => {
      const relay = api.running.app.get(GuideEventRelay);
      await relay.stop();
      try {
        const res = await api.request('GET', '/health/ready');
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({
          error: true,
          message: 'Not ready: workers',
          status: 'error',
          details: { database: { status: 'up' }, workers: { status: 'down', 'guide-event-relay': 'stopped' } },
        });
        expect(api.logs).toContainEqual(expect.objectContaining({ level: 40, msg: 'not ready' }));
      } finally {
        await relay.start(api.db.url);
      }
      expect((await api.request('GET', '/health/ready')).status).toBe(200);
    });

    it('probes are neither throttled nor logged at info level', async () => {
      const before = api.logs.length;
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => api.request('GET', i % 2 ? '/health/ready' : '/health/live')));
      expect(answers.map((r) => r.status)).toEqual(Array(60).fill(200));
      const probeLines = api.logs.slice(before).filter((l) => JSON.stringify(l).includes('/health/'));
      expect(probeLines).toEqual([]);
    });
  });

  describe('GET /api/2.0/metrics', () => {
    it('answers the Prometheus text format with the process metrics', async () => {
      const res = await api.request('GET', '/metrics');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(PROM_CONTENT_TYPE);
      for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
        expect({ name, value: sample(res.text, name) }).toEqual({ name, value: expect.any(Number) });
      }
    });

    it('times requests by route template and status, the hot path included, never by raw URL', async () => {
      const count = async (labels: Record<string, string>) => sample((await api.request('GET', '/metrics')).text, 'http_request_duration_seconds_count', labels) ?? 0;
      const hot = { method: 'GET', route: '/guides/:guideid', status: '200' };
      const list = { method: 'GET', route: '/guides', status: '200' };
      const missing = { method: 'GET', route: '<none>', status: '404' };
      const [hotBefore, listBefore, missingBefore] = [await count(hot), await count(list), await count(missing)];
      // Anonymous reads of one guide: the hot path answers them (the second from the cache).
      for (let i = 0; i < 3; i++) expect((await api.request('GET', '/guides/2')).status).toBe(200);
      // A list read twice: built by the route, then answered from the kept body ahead of Express.
      expect((await api.request('GET', '/guides?limit=2')).status).toBe(200);
      expect((await api.request('GET', '/guides?limit=2')).status).toBe(200);
      expect((await api.request('GET', '/no/such/route/4711')).status).toBe(404);
      expect(await count(hot)).toBe(hotBefore + 3);
      expect(await count(list)).toBe(listBefore + 2);
      expect(await count(missing)).toBe(missingBefore + 1);
      const text = (await api.request('GET', '/metrics')).text;
      expect(text).not.toMatch(/route="[^"]*(?:\/guides\/2"|4711)/);
      expect(sample(text, 'http_request_duration_seconds_bucket', { ...hot, le: '+Inf' })).toBe(hotBefore + 3);
      // The operator endpoints are counted under their own routes.
      expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status: '200' })).toBeGreaterThan(0);
    });

    it('reports the database pool, the caches and the event backlog', async () => {
      await api.request('GET', '/guides/3');
      await api.request('GET', '/guides/3');
      await api.request('GET', '/categories');
      await api.request('GET', '/categories');
      const text = (await api.request('GET', '/metrics')).text;
      expect(sample(text, 'db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'db_pool_idle_connections')).toEqual(expect.any(Number));
      expect(sample(text, 'db_pool_waiting_clients')).toBe(0);
      expect(sample(text, 'db_pool_max_connections')).toBe(10);
      expect(sample(text, 'cache_requests_total', { cache: 'guide_body', result: 'hit' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'cache_requests_total', { cache: 'guide_body', result: 'miss' })).toBeGreaterThanOrEqual(1);
      // The second tree is the kept answer (served ahead of Express): the tree's own cache is not asked.
      expect(sample(text, 'cache_requests_total', { cache: 'category_tree_answers', result: 'hit' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'cache_requests_total', { cache: 'category_tree' })).toEqual(expect.any(Number));
      for (const cache of ['guide_user_parts', 'search_pages', 'search_suggestions', 'comment_answers']) expect(sample(text, 'cache_requests_total', { cache })).toEqual(expect.any(Number));
      expect(sample(text, 'guide_events_pending')).toBe(0);
      expect(sample(text, 'guide_events_oldest_pending_age_seconds')).toBe(0);
    });
  });
});

describe('operator endpoints with METRICS_TOKEN, SHUTDOWN_DELAY_SECONDS and no event delivery', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ METRICS_TOKEN: 'scrape-token-123', SHUTDOWN_DELAY_SECONDS: '1', EVENT_DELIVERY: 'false' });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('reports the undelivered events and the age of the oldest', async () => {
    const token = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    expect((await api.request('PUT', '/user/favorites/guides/3', { token })).status).toBeLessThan(300);
    await api.sql(`UPDATE guide_events_outbox SET created_at = now() - interval '90 seconds' WHERE delivered_at IS NULL`);
    // The first scrape of this server: the backlog is read now (then kept 5 s).
    const text = (await api.request('GET', '/metrics', { headers: { Authorization: 'Bearer scrape-token-123' } })).text;
    const [row] = await api.sql<{ pending: number }>('SELECT count(*)::int AS pending FROM guide_events_outbox WHERE delivered_at IS NULL');
    expect(row!.pending).toBeGreaterThan(0);
    expect(sample(text, 'guide_events_pending')).toBe(row!.pending);
    expect(sample(text, 'guide_events_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(90);
    // Without EVENT_DELIVERY no relay runs here, and readiness does not ask for one.
    expect((await api.request('GET', '/health/ready')).body.details.workers).toEqual({ status: 'up' });
  });

  it('asks for the bearer token on /metrics only', async () => {
    const none = await api.request('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(none.body).toEqual({ error: true, message: 'The metrics need Authorization: Bearer <METRICS_TOKEN>' });
    expect((await api.request('GET', '/metrics', { headers: { Authorization: 'Bearer wrong-token' } })).status).toBe(401);
    expect((await api.request('GET', '/metrics', { headers: { Authorization: 'api scrape-token-123' } })).status).toBe(401);
    const ok = await api.request('GET', '/metrics', { headers: { Authorization: 'Bearer scrape-token-123' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe(PROM_CONTENT_TYPE);
    expect((await api.request('GET', '/metrics', { headers: { Authorization: 'bearer scrape-token-123' } })).status).toBe(200);
    expect((await api.request('GET', '/health/ready')).status).toBe(200);
  });

  it('turns readiness 503 as soon as a shutdown starts, while the server still answers', async () => {
    const closing = api.running.close();
    try {
      const ready = await api.request('GET', '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ error: true, message: 'Not ready: shutdown', status: 'error', details: { shutdown: { status: 'down', message: 'the server is shutting down' } } });
      // Alive, and still serving what is routed to it during the delay.
      expect((await api.request('GET', '/health/live')).status).toBe(200);
      expect((await api.request('GET', '/guides/2')).status).toBe(200);
    } finally {
      await closing;
    }
    await expect(fetch(`${api.origin}/api/2.0/health/live`)).rejects.toThrow();
  });
});
