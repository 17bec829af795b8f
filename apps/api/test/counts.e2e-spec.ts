import { pino } from 'pino';
import { WikiViewFlushing } from '@rc/catalog-http';
import { GuideVersions, GuideViewFlushing } from '@rc/guides-http';
import { loadConfig } from '../src/config/config.js';
import { startApi, type RunningApi } from '../src/server.js';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

const CONTRIBUTOR_KEYS = ['avatar_url', 'image', 'join_date', 'percent', 'profile_url', 'reputation', 'teams', 'unique_username', 'url', 'userid', 'username'];

/** Contributors, favourite and completion counts, views counted in memory and written in batches, and the count orders of `GET /guides`. */
describe('contributors, counts and views', () => {
  let api: TestApi;
  let alice: string;
  let bob: string;
  let admin: string;
  const userid = { alice: 0, bob: 0 };
  let bobName = '';
  const statements: string[] = [];

  beforeAll(async () => {
    // Kept bodies show a newer stored view count at once (the default waits 30 s).
    api = await startTestApi({ VIEW_REFRESH_SECONDS: '0' }, { onQuery: (sql) => statements.push(sql) });
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    userid.alice = (await api.request('GET', '/user', { token: alice })).body.userid;
    ({ userid: userid.bob, username: bobName } = (await api.request('GET', '/user', { token: bob })).body);
  });
  afterAll(() => api.close());

  const json = async (res: Response): Promise<Record<string, any>> => (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const get = (path: string, headers: Record<string, string> = {}, origin = api.origin) => fetch(`${origin}/api/2.0${path}`, { headers: { 'Accept-Encoding': 'identity', ...headers } });
  const flushGuides = (running: RunningApi = api.running) => running.app.get(GuideViewFlushing, { strict: false }).flush();
  const flushWikis = (running: RunningApi = api.running) => running.app.get(WikiViewFlushing, { strict: false }).flush();
  const storedViews = async (guideId: number) => Number((await api.sql<{ views: string }>('SELECT views FROM guide_stats WHERE guide_id = $1', [guideId]))[0]?.views ?? -1);

  async function publicGuide(title: string, token = alice): Promise<{ guideid: number; revisionid: number }> {
    const res = await api.request('POST', '/guides', { token, body: { category: 'iPhone 12', type: 'repair', title, public: true } });
    expect(res.status).toBe(201);
    // Its creation reaches reputation (the author's points, shown in every body of the author's
    // guides, change) and this instance hears of it, before a test compares bodies or ETags.
    await api.settle();
    await api.running.app.get(GuideVersions, { strict: false }).barrier();
    return res.body;
  }

  describe('contributors', () => {
    it('lists the creator first with every editor’s share of the revisions, as a page lists its authors', async () => {
      const guide = await publicGuide('Shared guide');
      expect((await api.request('PUT', `/guides/${guide.guideid}/users/${userid.bob}`, { token: alice })).status).toBe(201);
      let revisionid = guide.revisionid;
      for (const [token, summary] of [[bob, 'one'], [bob, 'two'], [alice, 'three']] as const) {
        const res = await api.request('PATCH', `/guides/${guide.guideid}?revisionid=${revisionid}`, { token, body: { summary } });
        expect(res.status).toBe(200);
        revisionid = res.body.revisionid;
      }
      // The write's own body counts its revision.
      const last = await api.request('PATCH', `/guides/${guide.guideid}?revisionid=${revisionid}`, { token: bob, body: { summary: 'four' } });
      expect(last.body.contributors.map((c: { userid: number; percent: number }) => [c.userid, c.percent])).toEqual([
        [userid.alice, 40],
        [userid.bob, 60],
      ]);
      for (const body of [(await json(await get(`/guides/${guide.guideid}`))) as Record<string, unknown>, (await api.request('GET', `/guides/${guide.guideid}`, { token: bob })).body]) {
        const contributors = body['contributors'] as Record<string, unknown>[];
        expect(contributors.map((c) => [c['userid'], c['percent']])).toEqual([
          [userid.alice, 40],
          [userid.bob, 60],
        ]);
        expect(Object.keys(contributors[0]!).sort()).toEqual(CONTRIBUTOR_KEYS);
        expect(contributors[1]).toMatchObject({ username: bobName, profile_url: contributors[1]!['url'], avatar_url: null });
      }
      // A past revision lists the contributors it had.
      const first = await api.request('GET', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`);
      expect(first.body.contributors.map((c: { userid: number; percent: number }) => [c.userid, c.percent])).toEqual([[userid.alice, 100]]);
    });
  });

  describe('favourite and completion counts', () => {
    it('count the marks, and a mark changes the anonymous body (and its ETag) at once', async () => {
      const guide = await publicGuide('Marked guide');
      const before = await get(`/guides/${guide.guideid}`);
      const body = await json(before);
      expect([body.favorites_count, body.completions_count]).toEqual([0, 0]);
      expect((await api.request('PUT', `/user/favorites/guides/${guide.guideid}`, { token: alice })).status).toBe(204);
      expect((await api.request('PUT', `/user/favorites/guides/${guide.guideid}`, { token: bob })).status).toBe(204);
      expect((await api.request('PUT', `/user/favorites/guides/${guide.guideid}`, { token: bob })).status).toBe(204); // idempotent
      expect((await api.request('PUT', `/guides/${guide.guideid}/completed`, { token: bob })).status).toBe(204);
      const after = await get(`/guides/${guide.guideid}`, { 'If-None-Match': before.headers.get('etag')! });
      expect(after.status).toBe(200);
      const now = await json(after);
      expect([now.favorites_count, now.completions_count]).toEqual([2, 1]);
      expect(now.revisionid).toBe(body.revisionid);
      expect((await api.request('DELETE', `/user/favorites/guides/${guide.guideid}`, { token: alice })).status).toBe(204);
      const mine = await api.request('GET', `/guides/${guide.guideid}`, { token: alice });
      expect([mine.body.favorites_count, mine.body.completions_count, mine.body.favorited]).toEqual([1, 1, false]);
    });
  });

  describe('views', () => {
    it('are counted in memory (no statement per read) and written in one statement per flush; a 304 is a view, a HEAD or a past revision is not', async () => {
      const guide = await publicGuide('Viewed guide');
      expect((await json(await get(`/guides/${guide.guideid}`))).views).toBe(0);
      await get(`/guides/${guide.guideid}`);
      await flushGuides();
      // The kept body now shows the 2 views stored: its ETag is the one clients revalidate with.
      const first = await get(`/guides/${guide.guideid}`);
      expect((await json(first)).views).toBe(2);
      const etag = first.headers.get('etag')!;
      const before = statements.length;
      for (let i = 0; i < 5; i++) expect((await get(`/guides/${guide.guideid}`)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await get(`/guides/${guide.guideid}`, { 'If-None-Match': etag })).status).toBe(304);
      // Cached reads of a remembered version run no statement at all: counting views adds none.
      expect(statements.slice(before).filter((sql) => !/^(begin|commit)/i.test(sql))).toEqual([]);
      expect((await fetch(`${api.origin}/api/2.0/guides/${guide.guideid}`, { method: 'HEAD' })).status).toBe(200);
      expect((await api.request('GET', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, { token: bob })).status).toBe(200); // a revision asked for by id: not counted
      expect((await api.request('GET', `/guides/${guide.guideid}`, { token: bob })).status).toBe(200); // signed in: counted
      expect((await api.request('GET', `/guides/${guide.guideid}?type=XML`)).status).toBe(200); // XML: counted
      expect(await storedViews(guide.guideid)).toBe(2);
      const flushedBefore = statements.length;
      await flushGuides();
      const flush = statements.slice(flushedBefore).filter((sql) => /guide_stats/i.test(sql));
      expect(flush).toHaveLength(1);
      expect(flush[0]).toMatch(/views = s\.views \+ excluded\.views/i);
      expect(await storedViews(guide.guideid)).toBe(13);
      // Bodies show the stored count: kept anonymous bodies once this instance has learned it, with a new ETag.
      const shown = await get(`/guides/${guide.guideid}`);
      expect((await json(shown)).views).toBe(13);
      expect(shown.headers.get('etag')).not.toBe(etag);
      expect((await api.request('GET', `/guides/${guide.guideid}`, { token: alice })).body.views).toBe(13);
    });

    it('of wiki pages are counted the same way', async () => {
      const path = '/wikis/CATEGORY/iPhone_12';
      const start = (await api.request('GET', path)).body.views as number;
      await flushWikis();
      for (let i = 0; i < 4; i++) expect((await api.request('GET', path)).status).toBe(200);
      expect((await api.request('GET', `${path}?revisionid=${(await api.request('GET', path)).body.revisionid}`)).status).toBe(200); // not counted
      await flushWikis();
      expect((await api.request('GET', path)).body.views).toBe(start + 6);
    });
  });

  describe('a page read while its views are flushed', () => {
    it('keeps its bytes and ETag within a VIEW_REFRESH_SECONDS window, so revalidations get 304s, while an instance refreshing at once shows the stored total', async () => {
      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.db.url, DEMO_DATA: 'false', LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false', VIEW_FLUSH_SECONDS: '3600', VIEW_REFRESH_SECONDS: '3600' });
      const windowed = await startApi(config, pino({ level: 'error' }), { identity: { argon2: { memoryCost: 4096, timeCost: 1, parallelism: 1 } } });
      try {
        const path = '/wikis/CATEGORY/iPhone_12';
        const hour = () => Math.floor(Date.now() / 3_600_000);
        // The windows are wall-clock hours here: a read pair across the top of an hour is read again.
        for (let attempt = 0; ; attempt++) {
          const at = hour();
          const first = await get(path, {}, windowed.url);
          const { views } = await json(first);
          for (let i = 0; i < 3; i++) expect((await get(path, {}, windowed.url)).status).toBe(200);
          await flushWikis(windowed);
          await api.sql('UPDATE wiki_page_stats SET views = views + 1000 WHERE wiki_id = (SELECT id FROM wiki_pages WHERE namespace = $1 AND title = $2)', ['CATEGORY', 'iPhone 12']);
          const again = await get(path, { 'If-None-Match': first.headers.get('etag')! }, windowed.url);
          if (hour() !== at && attempt === 0) continue;
          expect(again.status).toBe(304);
          // Another instance, reading the stored total on every request (VIEW_REFRESH_SECONDS=0), shows the views counted meanwhile.
          expect((await api.request('GET', path)).body.views).toBeGreaterThanOrEqual(views + 4 + 1000);
          break;
        }
      } finally {
        await windowed.close();
      }
    });
  });

  describe('a guide read while its views are flushed', () => {
    it('keeps its bytes and ETag within a VIEW_REFRESH_SECONDS window, so revalidations get 304s, while an instance refreshing at once shows the stored total', async () => {
      const guide = await publicGuide('Revalidated while counted');
      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.db.url, DEMO_DATA: 'false', LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false', VIEW_FLUSH_SECONDS: '3600', VIEW_REFRESH_SECONDS: '3600' });
      const windowed = await startApi(config, pino({ level: 'error' }), { identity: { argon2: { memoryCost: 4096, timeCost: 1, parallelism: 1 } } });
      try {
        const path = `/guides/${guide.guideid}`;
        const hour = () => Math.floor(Date.now() / 3_600_000);
        // The windows are wall-clock hours here: a read pair across the top of an hour is read again.
        for (let attempt = 0; ; attempt++) {
          const at = hour();
          const first = await get(path, {}, windowed.url);
          const { views } = await json(first);
          for (let i = 0; i < 3; i++) expect((await get(path, {}, windowed.url)).status).toBe(200);
          // The flush returns the stored total: the windowed instance now knows a higher one.
          await flushGuides(windowed);
          expect(await storedViews(guide.guideid)).toBeGreaterThanOrEqual(views + 4);
          await api.sql('UPDATE guide_stats SET views = views + 1000 WHERE guide_id = $1', [guide.guideid]);
          const again = await get(path, { 'If-None-Match': first.headers.get('etag')! }, windowed.url);
          const plain = await get(path, {}, windowed.url);
          if (hour() !== at && attempt === 0) continue;
          expect(again.status).toBe(304);
          expect(plain.headers.get('etag')).toBe(first.headers.get('etag'));
          expect((await json(plain)).views).toBe(views);
          // Another instance, showing a newer total at once (VIEW_REFRESH_SECONDS=0), shows the views counted meanwhile.
          expect((await json(await get(path))).views).toBeGreaterThanOrEqual(views + 4 + 1000);
          break;
        }
      } finally {
        await windowed.close();
      }
    });
  });

  describe('GET /guides?order=', () => {
    it('orders by views, favourites, popularity and publication, most first, and refuses other orders', async () => {
      const a = await publicGuide('Order A');
      const b = await publicGuide('Order B');
      const c = await publicGuide('Order C');
      await api.sql('UPDATE guide_stats SET views = 1000000 + $2 WHERE guide_id = $1', [a.guideid, 3]);
      await api.sql('UPDATE guide_stats SET views = 1000000 + $2 WHERE guide_id = $1', [b.guideid, 9]);
      await api.sql('UPDATE guide_stats SET views = 1000000 + $2 WHERE guide_id = $1', [c.guideid, 1]);
      for (const token of [alice, bob, admin]) expect((await api.request('PUT', `/user/favorites/guides/${c.guideid}`, { token })).status).toBe(204);
      const ids = async (order: string) => ((await api.request('GET', `/guides?order=${order}&limit=200`)).body as { guideid: number }[]).map((g) => g.guideid);
      const mine = (list: number[]) => list.filter((id) => [a.guideid, b.guideid, c.guideid].includes(id));
      expect((await ids('views')).slice(0, 3)).toEqual([b.guideid, a.guideid, c.guideid]);
      expect((await ids('VIEWS')).slice(0, 3)).toEqual([b.guideid, a.guideid, c.guideid]);
      expect((await ids('favorites'))[0]).toBe(c.guideid);
      // popular: views + 20 × favourites + 10 × completions (c: 1000001 + 60).
      expect((await ids('popular')).slice(0, 3)).toEqual([c.guideid, b.guideid, a.guideid]);
      expect(mine(await ids('newest'))).toEqual([c.guideid, b.guideid, a.guideid]);
      expect((await ids('newest'))[0]).toBe(c.guideid);
      // Paged: the second page goes on where the first stopped.
      const page1 = ((await api.request('GET', '/guides?order=views&limit=2')).body as { guideid: number }[]).map((g) => g.guideid);
      const page2 = ((await api.request('GET', '/guides?order=views&limit=2&offset=2')).body as { guideid: number }[]).map((g) => g.guideid);
      expect([...page1, ...page2]).toEqual((await ids('views')).slice(0, 4));
      // The original's orders stay as they were.
      const asc = await ids('ASC');
      expect(asc).toEqual([...asc].sort((x, y) => x - y));
      const bad = await api.request('GET', '/guides?order=random');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/ASC, DESC, popular, views, favorites, newest/);
    });
  });

  describe('across instances', () => {
    let other: RunningApi;

    beforeAll(async () => {
      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.db.url, DEMO_DATA: 'false', LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false', VIEW_FLUSH_SECONDS: '3600', VIEW_REFRESH_SECONDS: '0' });
      other = await startApi(config, pino({ level: 'silent' }), { identity: { argon2: { memoryCost: 4096, timeCost: 1, parallelism: 1 } } });
    });
    afterAll(() => other?.close());

    it('each instance counts its own reads; the stored total holds both once both have flushed, and each shows it', async () => {
      const guide = await publicGuide('Two instances');
      for (let i = 0; i < 7; i++) expect((await get(`/guides/${guide.guideid}`)).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await get(`/guides/${guide.guideid}`, {}, other.url)).status).toBe(200);
      await flushGuides(other);
      await flushGuides();
      expect(await storedViews(guide.guideid)).toBe(12);
      // An instance learns the stored total, the other's views included, from its own flush.
      expect((await json(await get(`/guides/${guide.guideid}`))).views).toBe(12);
      await flushGuides();
      expect((await json(await get(`/guides/${guide.guideid}`, {}, other.url))).views).toBe(5);
      await flushGuides(other);
      expect(await storedViews(guide.guideid)).toBe(14);
      expect((await json(await get(`/guides/${guide.guideid}`, {}, other.url))).views).toBe(14);
    });

    it('an instance that stops writes what it counted', async () => {
      const guide = await publicGuide('Stopping instance');
      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.db.url, DEMO_DATA: 'false', LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false', VIEW_FLUSH_SECONDS: '3600' });
      const third = await startApi(config, pino({ level: 'silent' }));
      for (let i = 0; i < 4; i++) expect((await get(`/guides/${guide.guideid}`, {}, third.url)).status).toBe(200);
      expect(await storedViews(guide.guideid)).toBe(0);
      await third.close();
      expect(await storedViews(guide.guideid)).toBe(4);
    });

    it('flushes every VIEW_FLUSH_SECONDS by itself', async () => {
      const guide = await publicGuide('Flushed by the timer');
      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.db.url, DEMO_DATA: 'false', LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false', VIEW_FLUSH_SECONDS: '1' });
      const timed = await startApi(config, pino({ level: 'silent' }));
      try {
        for (let i = 0; i < 3; i++) expect((await get(`/guides/${guide.guideid}`, {}, timed.url)).status).toBe(200);
        for (const until = Date.now() + 15_000; (await storedViews(guide.guideid)) !== 3; ) {
          if (Date.now() > until) throw new Error(`views not flushed in time: ${await storedViews(guide.guideid)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await timed.close();
      }
      expect(await storedViews(guide.guideid)).toBe(3);
    });
  });
});
