import { request } from 'node:http';
import { pino } from 'pino';
import { KeptAnswers } from '@rc/shared-http';
import { WikiViewCounter } from '@rc/catalog-http';
import { loadConfig } from '../src/config/config.js';
import { startApi, type RunningApi } from '../src/server.js';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/**
 * Kept answers (lists, category pages, search, suggest) served ahead of Express (KeptAnswers): an
 * anonymous GET or HEAD whose kept answer holds for the content stamp read after it arrived gets
 * exactly what the route would answer (status, headers, validators, body, a view counted), and
 * anything else goes to the route. Two instances on one database: one with the hot path, one
 * whose every answer comes from Express; their answers are compared header by header.
 */
describe('kept answers served ahead of Express', () => {
  let api: TestApi;
  let plain: RunningApi;
  let admin: string;
  const env = { VIEW_FLUSH_SECONDS: '3600' };

  beforeAll(async () => {
    api = await startTestApi(env);
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.db.url, DEMO_DATA: 'false', LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false', ...env });
    plain = await startApi(config, pino({ level: 'silent' }), { hotPath: false, identity: { argon2: { memoryCost: 4096, timeCost: 1, parallelism: 1 } } });
  });
  afterAll(async () => {
    await plain?.close();
    await api?.close();
  });

  const served = () => api.running.app.get(KeptAnswers).served;
  const send = (origin: string, method: string, path: string, headers: Record<string, string> = {}) => fetch(`${origin}/api/2.0${path}`, { method, headers: { 'Accept-Encoding': 'identity', ...headers } });
  /** What a client sees of an answer, but the headers that differ between any two answers (the request id, the date). */
  async function seen(res: Response) {
    const headers = [...res.headers.entries()].filter(([name]) => !['date', 'x-request-id', 'connection', 'keep-alive'].includes(name));
    return { status: res.status, headers: Object.fromEntries(headers.sort(([a], [b]) => a.localeCompare(b))), body: await res.text() };
  }
  /** The hot instance's answer (checked to come from the hot path, or not) and the route's, for the same request. */
  async function both(method: string, path: string, headers: Record<string, string> = {}, hot = true) {
    const before = served();
    const fast = await seen(await send(api.origin, method, path, headers));
    expect(served() - before).toBe(hot ? 1 : 0);
    const route = await seen(await send(plain.url, method, path, headers));
    return { fast, route };
  }
  /** Reads `path` once on each instance, so that both keep it. */
  async function keep(path: string) {
    for (const origin of [api.origin, plain.url]) {
      const res = await send(origin, 'GET', path);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  }

  const PATHS = ['/guides?limit=5', '/guides?limit=3&offset=2&order=DESC', '/guides/featured', '/search/iphone', '/search/battery?filter=guide&limit=3', '/suggest/iph', '/wikis/CATEGORY/iPhone_12'];

  it.each(PATHS)('answers %s as the route does: 200, 304 by ETag, HEAD, CORS', async (path) => {
    await keep(path);
    const ok = await both('GET', path);
    expect(ok.fast.status).toBe(200);
    expect(ok.fast).toEqual(ok.route);
    const etag = ok.fast.headers['etag']!;
    expect(etag).toBeTruthy();
    const notModified = await both('GET', path, { 'If-None-Match': etag });
    expect(notModified.fast.status).toBe(304);
    expect(notModified.fast).toEqual(notModified.route);
    const other = await both('GET', path, { 'If-None-Match': '"something-else"' });
    expect(other.fast.status).toBe(200);
    expect(other.fast).toEqual(other.route);
    const head = await both('HEAD', path);
    expect(head.fast.body).toBe('');
    expect(head.fast).toEqual(head.route);
    const cors = await both('GET', path, { Origin: 'https://example.org' });
    expect(cors.fast).toEqual(cors.route);
  });

  it.each(['/search/iphone', '/wikis/CATEGORY/iPhone_12'])('answers %s (kept gzipped) in gzip to a client that takes it, as the route does', async (path) => {
    await keep(path);
    const identity = await both('GET', path);
    const gzip = await both('GET', path, { 'Accept-Encoding': 'gzip, deflate' });
    expect(gzip.fast).toEqual(gzip.route);
    expect(gzip.fast.status).toBe(200);
    expect(gzip.fast.headers['content-encoding']).toBe('gzip');
    // Its own ETag (the JSON's, marked), the same JSON once inflated, and both vary on Accept-Encoding.
    expect(gzip.fast.headers['etag']).toBe(identity.fast.headers['etag']!.replace(/"$/, '-gzip"'));
    expect(gzip.fast.body).toBe(identity.fast.body);
    expect(Number(gzip.fast.headers['content-length'])).toBeLessThan(Buffer.byteLength(identity.fast.body) / 2);
    expect(gzip.fast.headers['vary']).toMatch(/Accept-Encoding/);
    expect(identity.fast.headers['vary']).toMatch(/Accept-Encoding/);
    const notModified = await both('GET', path, { 'Accept-Encoding': 'gzip', 'If-None-Match': gzip.fast.headers['etag']! });
    expect(notModified.fast.status).toBe(304);
    expect(notModified.fast).toEqual(notModified.route);
    // The JSON's ETag names the other representation.
    const other = await both('GET', path, { 'Accept-Encoding': 'gzip', 'If-None-Match': identity.fast.headers['etag']! });
    expect(other.fast.status).toBe(200);
    expect(other.fast.headers['content-encoding']).toBe('gzip');
  });

  it('answers in gzip from the build of a kept answer, with the bytes and ETag later hits send', async () => {
    const path = '/search/macbook%20battery';
    const built = await send(api.origin, 'GET', path, { 'Accept-Encoding': 'gzip' });
    expect(built.status).toBe(200);
    expect(built.headers.get('content-encoding')).toBe('gzip');
    const before = served();
    const hit = await send(api.origin, 'GET', path, { 'Accept-Encoding': 'gzip' });
    expect(served() - before).toBe(1);
    expect(hit.headers.get('etag')).toBe(built.headers.get('etag'));
    expect(hit.headers.get('content-length')).toBe(built.headers.get('content-length'));
    expect(await hit.text()).toBe(await built.text());
  });

  it('answers a category page by If-Modified-Since as the route does, and counts a view for each GET (not HEAD)', async () => {
    const page = '/wikis/CATEGORY/iPhone_12';
    await keep(page);
    const lastModified = (await send(api.origin, 'GET', page)).headers.get('last-modified')!;
    expect(lastModified).toBeTruthy();
    const since = await both('GET', page, { 'If-Modified-Since': lastModified });
    expect(since.fast.status).toBe(304);
    expect(since.fast).toEqual(since.route);
    const views = api.running.app.get(WikiViewCounter);
    const before = views.unflushed;
    await both('GET', page);
    await both('GET', page, { 'If-None-Match': '*' });
    await both('HEAD', page);
    expect(views.unflushed - before).toBe(2);
  });

  it('leaves to the route what it does not keep, or answers otherwise: a token, ?pretty, counted orders, a language, a body', async () => {
    const cases: [string, Record<string, string>][] = [
      ['/guides?limit=5', { Authorization: `api ${admin}` }],
      ['/guides?limit=5', { Authorization: 'api not-a-token' }],
      ['/guides?limit=5&pretty', {}],
      ['/guides?order=views&limit=3', {}],
      ['/search/iphone?pretty', {}],
      ['/wikis/CATEGORY/iPhone_12?langid=de', {}],
      ['/wikis/CATEGORY/iPhone_12', { Authorization: `api ${admin}` }],
    ];
    for (const [path, headers] of cases) {
      await send(api.origin, 'GET', path, headers).then((res) => res.arrayBuffer());
      const { fast, route } = await both('GET', path, headers, false);
      expect(fast.status).toBe(200);
      if (headers['Authorization']) expect(fast.headers['cache-control']).toBe('private, no-cache');
      // A signed-in reader's page says what they may do; anything else is the same answer.
      if (!path.startsWith('/wikis') || !headers['Authorization']) expect(fast.body).toBe(route.body);
    }
    // A GET with a body goes to Express, which reads (and here refuses) it.
    const before = served();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${api.origin}/api/2.0/guides?limit=5`, { method: 'GET', headers: { 'Content-Length': '1' } }, (res) => (res.resume(), resolve(res.statusCode!)));
      req.on('error', reject);
      req.end('x');
    });
    expect(status).toBe(400);
    expect(served()).toBe(before);
    // A page that does not exist, or a namespace that does not: the route's 404.
    const missing = await both('GET', '/wikis/CATEGORY/No_such_page_at_all', {}, false);
    expect(missing.fast.status).toBe(404);
    expect((await both('GET', '/wikis/NOPE/iPhone_12', {}, false)).fast.status).toBe(404);
  });

  it('never serves an answer kept with a stamp older than the request: changes committed before it are in it, under concurrent reads', async () => {
    const path = '/guides?limit=1';
    const [guide] = JSON.parse((await seen(await send(api.origin, 'GET', path))).body) as { guideid: number; title: string }[];
    let loading = true;
    // Readers keep the stamp's shared read busy, so checks arrive while a read is under way.
    const load = Promise.all(
      Array.from({ length: 6 }, async () => {
        while (loading) await send(api.origin, 'GET', path).then((res) => res.arrayBuffer());
      }),
    );
    try {
      for (let i = 0; i < 25; i++) {
        await api.sql('UPDATE guides SET title = $2 WHERE id = $1', [guide!.guideid, `Stamped title ${i}`]);
        const answers = await Promise.all(Array.from({ length: 4 }, () => send(api.origin, 'GET', path).then((res) => res.json() as Promise<{ title: string }[]>)));
        for (const answer of answers) expect(answer[0]!.title).toBe(`Stamped title ${i}`);
      }
    } finally {
      loading = false;
      await load;
      await api.sql('UPDATE guides SET title = $2 WHERE id = $1', [guide!.guideid, guide!.title]);
    }
    expect(served()).toBeGreaterThan(0);
  });
});
