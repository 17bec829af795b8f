import pg from 'pg';
import { pino } from 'pino';
import { GuideVersions } from '@rc/guides-http';
import { loadConfig } from '../src/config/config.js';
import { startApi, type RunningApi } from '../src/server.js';
import { isEventDelivery } from './support/event-delivery.js';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/** Anonymous guide reads: cached bodies, strong ETags, 304s, and never an older revision after a write. */
describe('GET /guides/{id}: cache and conditional requests', () => {
  let api: TestApi;
  let other: RunningApi;
  /** A third instance that checks every read against the database instead of listening. */
  let lookup: RunningApi;
  let alice: string;
  const statements: string[] = [];

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    // A second instance on the same database, as behind a load balancer.
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.db.url, DEMO_DATA: 'false', LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false' });
    other = await startApi(config, pino({ level: 'silent' }), { identity: { argon2: { memoryCost: 4096, timeCost: 1, parallelism: 1 } } });
    lookup = await startApi({ ...config, guideCacheCoherence: 'lookup' }, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await lookup?.close();
    await other?.close();
    await api?.close();
  });

  async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
    const until = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > until) throw new Error('condition not reached in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  // fetch asks for gzip unless told otherwise: plain JSON unless a test asks for gzip.
  const get = (path: string, headers: Record<string, string> = {}, origin = api.origin) => fetch(`${origin}/api/2.0${path}`, { headers: { 'Accept-Encoding': 'identity', ...headers } });

  async function publicGuide(title: string, prerequisites: number[] = []): Promise<{ guideid: number; revisionid: number }> {
    const res = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title, public: true, prerequisites } });
    expect(res.status).toBe(201);
    // Publishing moves the author's reputation, which the body shows: wait until it has moved.
    await api.settle();
    return res.body;
  }

  it('answers anonymous reads with a strong ETag that a gateway may keep and revalidate', async () => {
    const guide = await publicGuide('Cached guide');
    const res = await get(`/guides/${guide.guideid}`);
    expect(res.status).toBe(200);
    // The revision, then a hash of the bytes (a write may send it back as If-Match).
    expect(res.headers.get('etag')).toBe(`"r${guide.revisionid}-${res.headers.get('etag')!.slice(-28, -1)}"`);
    expect(res.headers.get('etag')).toMatch(/^"r\d+-[A-Za-z0-9_-]{27}"$/);
    expect(new Date(res.headers.get('last-modified')!).getTime()).toBeGreaterThan(Date.now() - 3_600_000);
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
    expect(res.headers.get('vary')).toMatch(/Authorization/);
    expect(res.headers.get('content-type')).toBe('application/json');
    // The second read is a cache hit, answered ahead of the framework: the same bytes and headers.
    const again = await get(`/guides/${guide.guideid}`, { Origin: 'https://client.example' });
    const first = await get(`/guides/${guide.guideid}?unused=1`, { Origin: 'https://client.example' });
    expect(await again.text()).toBe(await res.text());
    for (const name of ['etag', 'cache-control', 'vary', 'content-type', 'content-length', 'access-control-allow-origin', 'access-control-expose-headers']) {
      expect({ name, value: again.headers.get(name) }).toEqual({ name, value: res.headers.get(name) ?? first.headers.get(name) });
    }
    expect(again.headers.get('x-request-id')).toBeTruthy();
    // Clients that take gzip get the stored gzip bytes, under their own ETag.
    const gz = await get(`/guides/${guide.guideid}`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('etag')).toBe(res.headers.get('etag')!.replace(/"$/, '-gzip"'));
    expect(gz.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(await gz.text()).toBe(await (await get(`/guides/${guide.guideid}`)).text()); // fetch inflates it
    expect((await get(`/guides/${guide.guideid}`, { 'Accept-Encoding': 'gzip', 'If-None-Match': gz.headers.get('etag')! })).status).toBe(304);
    const head = await fetch(`${api.origin}/api/2.0/guides/${guide.guideid}`, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(res.headers.get('etag'));
  });

  it('answers a matching If-None-Match with 304 without building the body (no ORM statement at all)', async () => {
    const guide = await publicGuide('Conditional guide');
    const first = await get(`/guides/${guide.guideid}`);
    const etag = first.headers.get('etag')!;
    await api.settle();
    const before = statements.length;
    const res = await get(`/guides/${guide.guideid}`, { 'If-None-Match': etag });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
    expect(res.headers.get('etag')).toBe(etag);
    const ran = statements.slice(before).filter((s) => !/^(begin|commit|rollback)/i.test(s.trim()) && !isEventDelivery(s));
    expect(ran).toEqual([]);
    expect((await get(`/guides/${guide.guideid}`, { 'If-None-Match': '"something-else"' })).status).toBe(200);
  });

  it('never serves the older revision after a write, on this instance or another (notify or lookup coherence)', async () => {
    const guide = await publicGuide('Edited guide');
    const old = await get(`/guides/${guide.guideid}`);
    const oldEtag = old.headers.get('etag')!;
    await get(`/guides/${guide.guideid}`, {}, other.url); // the other instances cache it too
    await get(`/guides/${guide.guideid}`, {}, lookup.url);
    for (let i = 1; i <= 5; i++) {
      const current = (await api.request('GET', `/guides/${guide.guideid}`, { token: alice })).body.revisionid;
      const edit = await api.request('PATCH', `/guides/${guide.guideid}?revisionid=${current}`, { token: alice, body: { summary: `Edit ${i}` } });
      expect(edit.status).toBe(200);
      for (const origin of [api.origin, other.url, lookup.url]) {
        const res = await get(`/guides/${guide.guideid}`, { 'If-None-Match': oldEtag }, origin);
        expect(res.status).toBe(200);
        const body = (await res.json()) as { revisionid: number; summary: string };
        expect(body.revisionid).toBe(edit.body.revisionid);
        expect(body.summary).toBe(`Edit ${i}`);
      }
    }
  });

  it('serves remembered versions without a query; while its listener is away it looks them up, and never serves an older revision', async () => {
    const versions = api.running.app.get(GuideVersions);
    await waitFor(() => versions.live);
    const guide = await publicGuide('Remembered guide');
    await get(`/guides/${guide.guideid}`);
    await api.settle();
    const before = versions.lookups;
    for (let i = 0; i < 3; i++) expect((await get(`/guides/${guide.guideid}`)).status).toBe(200);
    expect(versions.lookups).toBe(before);

    // The listening connections are cut (as by a failover): reads look versions up until they are back.
    const db = new pg.Client({ connectionString: api.db.url });
    await db.connect();
    try {
      await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'rc-listener' AND datname = current_database()");
      await waitFor(() => !versions.live);
      const current = (await api.request('GET', `/guides/${guide.guideid}`, { token: alice })).body.revisionid;
      // Another instance writes while this one hears nothing.
      const edit = await fetch(`${other.url}/api/2.0/guides/${guide.guideid}?revisionid=${current}`, {
        method: 'PATCH',
        headers: { Authorization: `api ${alice}`, 'X-App-Id': 'demo-app-id', 'Content-Type': 'application/json' },
        body: JSON.stringify({ summary: 'Written elsewhere' }),
      });
      expect(edit.status).toBe(200);
      const lookups = versions.lookups;
      const res = (await (await get(`/guides/${guide.guideid}`)).json()) as { summary: string };
      expect(res.summary).toBe('Written elsewhere');
      expect(versions.lookups).toBe(lookups + 1);
      // Back: it remembers again.
      await waitFor(() => versions.live, 10_000);
      await get(`/guides/${guide.guideid}`);
      const after = versions.lookups;
      await get(`/guides/${guide.guideid}`);
      expect(versions.lookups).toBe(after);
    } finally {
      await db.end();
    }
  });

  it("shows an author's new name and reputation on the next read, on this instance and another (announced by the database)", async () => {
    const guide = await publicGuide('Author standing guide');
    type Body = { author: { userid: number; username: string; reputation: number } };
    const read = async (origin = api.origin) => (await (await get(`/guides/${guide.guideid}`, {}, origin)).json()) as Body;
    await api.settle();
    const before = await read();
    await read(other.url);
    const renamed = await api.request('PATCH', '/user', { token: alice, body: { username: 'Alice Renamed' } });
    expect(renamed.status).toBe(200);
    // The write answered after its change was heard: no read after it shows the old name.
    expect((await read()).author.username).toBe('Alice Renamed');
    expect((await read(other.url)).author.username).toBe('Alice Renamed');

    const bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
    expect((await api.request('PUT', `/guides/${guide.guideid}/completed`, { token: bob, body: {} })).status).toBe(204);
    await api.settle(); // the reputation event is delivered: alice's points change
    const now = (await api.request('GET', `/users/${before.author.userid}`)).body.reputation as number;
    expect(now).toBeGreaterThan(before.author.reputation);
    const until = Date.now() + 3000; // well within the 10 s a body may otherwise keep older standings
    let after = await read();
    while (after.author.reputation !== now && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await read();
    }
    expect(after.author.reputation).toBe(now);
    await api.request('PATCH', '/user', { token: alice, body: { username: before.author.username } });
  });

  it('rebuilds a guide whose prerequisite changed', async () => {
    const prereq = await publicGuide('Prerequisite');
    const step = await api.request('POST', `/guides/${prereq.guideid}/steps`, { token: alice, body: { lines: [{ text: 'Old step text', bullet: 'black', level: 0 }] } });
    expect(step.status).toBe(201);
    const guide = await publicGuide('Depends on it', [prereq.guideid]);
    const before = (await (await get(`/guides/${guide.guideid}`)).json()) as { steps: unknown[] };
    expect(JSON.stringify(before.steps)).toContain('Old step text');
    const current = (await api.request('GET', `/guides/${prereq.guideid}`, { token: alice })).body;
    const stepid = current.steps[0].stepid;
    const edited = await api.request('PATCH', `/guides/${prereq.guideid}/steps/${stepid}?revisionid=${current.steps[0].revisionid}`, {
      token: alice,
      body: { lines: [{ text: 'New step text', bullet: 'black', level: 0 }] },
    });
    expect(edited.status).toBe(200);
    const after = (await (await get(`/guides/${guide.guideid}`)).json()) as { steps: unknown[] };
    expect(JSON.stringify(after.steps)).toContain('New step text');
  });

  it("answers a signed-in reader of a public guide with the anonymous body and the reader's own can_edit, favorited and completed: what the route builds for them", async () => {
    const bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
    const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const bobId = (await api.request('GET', '/user', { token: bob })).body.userid as number;
    const guide = await publicGuide('Signed-in guide');
    /** The body the route builds for this reader (`?pretty` is never served from the kept body), compact again, views aside (a kept body shows its window's count). */
    const built = async (token: string) => {
      const res = await api.request('GET', `/guides/${guide.guideid}?pretty`, { token });
      expect(res.status).toBe(200);
      return JSON.stringify({ ...res.body, views: 0 });
    };
    const kept = async (token: string) => {
      const res = await api.request('GET', `/guides/${guide.guideid}`, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      expect(res.headers.get('etag')).toMatch(new RegExp(`^"r${res.body.revisionid}-`));
      return { body: res.body, json: JSON.stringify({ ...res.body, views: 0 }), etag: res.headers.get('etag')! };
    };
    const anonymous = await get(`/guides/${guide.guideid}`);
    const anonymousEtag = anonymous.headers.get('etag');
    const fields = (b: { can_edit: boolean; favorited: boolean; completed: boolean }) => [b.can_edit, b.favorited, b.completed];

    const mine = await kept(alice);
    expect(fields(mine.body)).toEqual([true, false, false]);
    expect(mine.json).toBe(await built(alice));
    expect(mine.etag).not.toBe(anonymousEtag);
    const bobs = await kept(bob);
    expect(fields(bobs.body)).toEqual([false, false, false]);
    expect(bobs.json).toBe(await built(bob));
    expect(fields((await kept(admin)).body)).toEqual([true, false, false]);

    // The reader's marks and access show at once, as the route shows them.
    expect((await api.request('PUT', `/user/favorites/guides/${guide.guideid}`, { token: bob })).status).toBeLessThan(300);
    expect((await api.request('PUT', `/guides/${guide.guideid}/completed`, { token: bob })).status).toBeLessThan(300);
    expect((await api.request('PUT', `/guides/${guide.guideid}/users/${bobId}`, { token: alice })).status).toBe(201);
    // The marks move the author's reputation, which the body shows: wait until it has moved.
    await api.settle();
    const marked = await kept(bob);
    expect(fields(marked.body)).toEqual([true, true, true]);
    expect(marked.json).toBe(await built(bob));
    // A 304 for the reader's own ETag; another reader's ETag is not theirs.
    expect((await api.request('GET', `/guides/${guide.guideid}`, { token: bob, headers: { 'If-None-Match': marked.etag } })).status).toBe(304);
    expect((await api.request('GET', `/guides/${guide.guideid}`, { token: alice, headers: { 'If-None-Match': marked.etag } })).status).toBe(200);

    // The writer reads the revision it wrote, on this instance and on another.
    const edit = await api.request('PATCH', `/guides/${guide.guideid}?revisionid=${marked.body.revisionid}`, { token: bob, body: { summary: 'Edited by a collaborator' } });
    expect(edit.status).toBe(200);
    for (const origin of [api.origin, other.url]) {
      const res = await fetch(`${origin}/api/2.0/guides/${guide.guideid}`, { headers: { Authorization: `api ${bob}`, 'Accept-Encoding': 'identity' } });
      const body = (await res.json()) as { revisionid: number; summary: string; can_edit: boolean };
      expect([body.revisionid, body.summary, body.can_edit]).toEqual([edit.body.revisionid, 'Edited by a collaborator', true]);
    }
  });

  it("builds a signed-in reader's body when the guide has a prerequisite that is not public (its editors may see it)", async () => {
    const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const hidden = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'A private prerequisite' } });
    expect(hidden.status).toBe(201);
    const guide = await publicGuide('Guide with a private prerequisite', [hidden.body.guideid]);
    const prerequisites = async (token: string | null) =>
      ((token ? (await api.request('GET', `/guides/${guide.guideid}`, { token })).body : await (await get(`/guides/${guide.guideid}`)).json()) as { prerequisites: { guideid: number }[] }).prerequisites.map((p) => p.guideid);
    expect(await prerequisites(null)).toEqual([]);
    expect(await prerequisites(alice)).toEqual([hidden.body.guideid]);
    expect(await prerequisites(admin)).toEqual([hidden.body.guideid]);
  });

  it('keeps viewer-specific, private, pretty, XML and past-revision reads out of the cache (they get ETags of their own bytes)', async () => {
    const guide = await publicGuide('Viewer guide');
    const cached = (await get(`/guides/${guide.guideid}`)).headers.get('etag');
    const mine = await api.request('GET', `/guides/${guide.guideid}`, { token: alice });
    expect(mine.body.can_edit).toBe(true);
    expect(mine.headers.get('etag')).toMatch(new RegExp(`^"r${guide.revisionid}-`));
    expect(mine.headers.get('cache-control')).toBe('private, no-cache');
    const others = [mine.headers.get('etag')];
    for (const path of [`/guides/${guide.guideid}?pretty`, `/guides/${guide.guideid}?type=XML`]) others.push((await get(path)).headers.get('etag'));
    expect((await get(`/guides/${guide.guideid}?type=XML`)).headers.get('content-type')).toBe('application/xml');
    // The same bytes as the cached body (the same revision, read by id): the same ETag, built by the route.
    expect((await get(`/guides/${guide.guideid}?revisionid=${guide.revisionid}`)).headers.get('etag')).toBe(cached);
    expect(new Set([cached, ...others]).size).toBe(4);

    const privateGuide = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'Private one' } });
    expect((await get(`/guides/${privateGuide.body.guideid}`)).status).toBe(403);
    expect((await get('/guides/999999')).status).toBe(404);

    // Unpublishing makes the next anonymous read a 403 at once.
    const current = (await api.request('GET', `/guides/${guide.guideid}`, { token: alice })).body.revisionid;
    expect((await api.request('DELETE', `/guides/${guide.guideid}/public?revisionid=${current}`, { token: alice })).status).toBe(200);
    expect((await get(`/guides/${guide.guideid}`)).status).toBe(403);
  });
});
