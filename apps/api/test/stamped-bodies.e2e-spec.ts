import { pino } from 'pino';
import { loadConfig } from '../src/config/config.js';
import { startApi, type RunningApi } from '../src/server.js';
import { ContentStampPruning } from '../src/wiring/content-stamp-pruning.js';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/**
 * Guide lists, wiki pages, search answers and comments kept with the content stamp (PAGE_CACHE_MB,
 * LIST_CACHE_MB): a kept body costs one statement, and any committed change to what it shows, on
 * any instance or straight in the database, is in the next read on every instance.
 */
describe('lists and pages kept with the content stamp', () => {
  let api: TestApi;
  let other: RunningApi;
  let alice: string;
  let admin: string;
  const statements: string[] = [];

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.db.url, DEMO_DATA: 'false', LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false', VIEW_FLUSH_SECONDS: '3600' });
    other = await startApi(config, pino({ level: 'silent' }), { identity: { argon2: { memoryCost: 4096, timeCost: 1, parallelism: 1 } } });
  });
  afterAll(async () => {
    await other?.close();
    await api.close();
  });

  const get = (path: string, origin = api.origin, headers: Record<string, string> = {}) => fetch(`${origin}/api/2.0${path}`, { headers: { 'Accept-Encoding': 'identity', ...headers } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body = async (path: string, origin = api.origin): Promise<any> => {
    const res = await get(path, origin);
    expect(res.status).toBe(200);
    return res.json();
  };
  /** The statements the first instance ran for one request. */
  async function counted(path: string, headers: Record<string, string> = {}): Promise<{ status: number; statements: string[]; etag: string | null }> {
    statements.length = 0;
    const res = await get(path, api.origin, headers);
    await res.arrayBuffer();
    return { status: res.status, statements: [...statements], etag: res.headers.get('etag') };
  }
  const titles = (list: { title: string }[]) => list.map((g) => g.title);
  /** A token from the other instance. */
  async function logInOnOther(account: { email: string; password: string }): Promise<string> {
    const res = await fetch(`${other.url}/api/2.0/user/token`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-App-Id': 'demo-app-id' }, body: JSON.stringify({ email: account.email, password: account.password }) });
    return ((await res.json()) as { authToken: string }).authToken;
  }

  it('answers a list read again with the stamp statement alone, the same bytes and ETag, and 304s as cheaply', async () => {
    const first = await counted('/guides?limit=5');
    const again = await counted('/guides?limit=5');
    expect(first.statements.length).toBeGreaterThan(1);
    expect(again.statements).toHaveLength(1);
    expect(again.statements[0]).toMatch(/content_changes/);
    expect(again.etag).toBe(first.etag);
    const revalidated = await counted('/guides?limit=5', { 'If-None-Match': first.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.statements).toHaveLength(1);
  });

  it('shows a guide edited on another instance at once, on both instances', async () => {
    const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'Stamped list guide', public: true } });
    expect(created.status).toBe(201);
    const path = `/guides?guideids=${created.body.guideid}`;
    expect(titles(await body(path))).toEqual(['Stamped list guide']);
    expect(titles(await body(path, other.url))).toEqual(['Stamped list guide']);
    const token = await logInOnOther(DEMO_ACCOUNTS.alice);
    const edited = await fetch(`${other.url}/api/2.0/guides/${created.body.guideid}?revisionid=${created.body.revisionid}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Authorization: `api ${token}` },
      body: JSON.stringify({ title: 'Stamped list guide, edited' }),
    });
    expect(edited.status).toBe(200);
    expect(titles(await body(path))).toEqual(['Stamped list guide, edited']);
    expect(titles(await body(path, other.url))).toEqual(['Stamped list guide, edited']);
  });

  it("shows a change made straight in the database (another writer than the API), and an author's new name", async () => {
    const [guide] = await body('/guides?limit=1');
    await body('/guides?limit=1');
    await api.sql('UPDATE guides SET title = $2 WHERE id = $1', [guide.guideid, 'Changed in SQL']);
    expect(titles(await body('/guides?limit=1'))).toEqual(['Changed in SQL']);
    const author = await api.sql<{ username: string }>('SELECT username FROM users WHERE id = $1', [guide.userid]);
    await api.sql('UPDATE users SET username = $2 WHERE id = $1', [guide.userid, 'Renamed author']);
    expect((await body('/guides?limit=1'))[0].username).toBe('Renamed author');
    await api.sql('UPDATE users SET username = $2 WHERE id = $1', [guide.userid, author[0]!.username]);
    await api.sql('UPDATE guides SET title = $2 WHERE id = $1', [guide.guideid, guide.title]);
    expect((await body('/guides?limit=1'))[0]).toEqual(guide);
  });

  it('does not count a password or email change, nor view flushes, as a change of what lists show', async () => {
    await body('/guides?limit=3');
    await api.sql("UPDATE users SET password_hash = password_hash, email = email WHERE id = (SELECT min(id) FROM users)");
    await api.sql('UPDATE guide_stats SET views = views + 5');
    await api.sql('UPDATE wiki_page_stats SET views = views + 5');
    expect((await counted('/guides?limit=3')).statements).toHaveLength(1);
  });

  it('builds orders by counts on every read (views are added without a change of the stamp)', async () => {
    await body('/guides?order=views&limit=3');
    expect((await counted('/guides?order=views&limit=3')).statements.length).toBeGreaterThan(1);
  });

  describe('a category page', () => {
    const page = '/wikis/CATEGORY/iPhone_12';

    it('is kept for anonymous readers and counts a view on every read, kept or not', async () => {
      await body(page);
      const again = await counted(page);
      expect(again.statements).toHaveLength(1);
      const signedIn = await api.request('GET', page, { token: admin });
      expect(signedIn.body.can_edit).toBe(true);
      expect((await body(page)).can_edit).toBe(false);
    });

    it('is built, when not kept, in a fixed number of statements whatever the sizes of its lists', async () => {
      await body(page);
      // Any committed change turns the stamp, so the next read builds the page again.
      await api.sql('UPDATE guides SET title = title WHERE id = (SELECT min(id) FROM guides)');
      const miss = await counted(page);
      expect(miss.status).toBe(200);
      const reads = (pattern: RegExp) => miss.statements.filter((sql) => pattern.test(sql)).length;
      // The stamp; the page; its parts (tree, tags, related pages, contributors, views) in one; the
      // category's guides with their parts and tools in one; the users (authors and guide authors),
      // their reputation, their teams and their avatars; the images of the page, its tree and its guides.
      expect(reads(/content_changes/)).toBe(1);
      expect(reads(/FROM wiki_pages WHERE namespace = \? AND title = \?/)).toBe(1);
      expect(reads(/wiki_tags/)).toBe(1);
      expect(reads(/FROM guides g/)).toBe(1);
      expect(reads(/FROM users WHERE id = ANY/)).toBe(1);
      expect(miss.statements).toHaveLength(9);
      // Kept again: the stamp alone.
      expect((await counted(page)).statements).toHaveLength(1);
    });

    it('shows at once a new guide of the category, a page edit made on another instance, and a new tag', async () => {
      const before = await body(page);
      const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'New in the category', public: true } });
      expect(created.status).toBe(201);
      const withGuide = await body(page);
      expect(withGuide.guides.map((g: { guideid: number }) => g.guideid)).toContain(created.body.guideid);
      expect(withGuide.guides.length).toBe(before.guides.length + 1);

      const token = await logInOnOther(DEMO_ACCOUNTS.admin);
      const edited = await fetch(`${other.url}/api/2.0/wikis/CATEGORY/iPhone_12?revisionid=${withGuide.revisionid}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', Authorization: `api ${token}` },
        body: JSON.stringify({ description: 'Edited on the other instance' }),
      });
      expect(edited.status).toBe(200);
      expect((await body(page)).description).toBe('Edited on the other instance');

      const tagged = await api.request('PUT', '/wikis/CATEGORY/iPhone_12/tag', { token: admin, body: { tag: 'stamped-tag' } });
      expect(tagged.status).toBeLessThan(300);
      expect((await body(page)).tags).toContain('stamped-tag');
    });
  });

  describe('comments', () => {
    /** A top-level comment on a public guide (the demo data has threads). */
    async function aThread(): Promise<{ commentid: number; contextid: number }> {
      const [row] = await api.sql<{ id: number; context_id: number }>(
        `SELECT c.id, c.context_id FROM comments c JOIN guides g ON g.id = c.guide_id AND g.is_public AND g.deleted_at IS NULL
          WHERE c.context = 'guide' AND c.parent_id IS NULL AND c.deleted_at IS NULL ORDER BY c.id LIMIT 1`,
      );
      return { commentid: row!.id, contextid: row!.context_id };
    }
    const post = async (origin: string, token: string, path: string, payload: object) => {
      const res = await fetch(`${origin}/api/2.0${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `api ${token}` }, body: JSON.stringify(payload) });
      expect(res.status).toBe(201);
      return (await res.json()) as { commentid: number };
    };

    it('keeps a thread for anonymous readers, and shows a reply posted on another instance at once, on both', async () => {
      const thread = await aThread();
      const path = `/comments/${thread.commentid}`;
      const before = await body(path);
      const again = await counted(path);
      expect(again.statements).toHaveLength(1);
      expect(again.statements[0]).toMatch(/content_changes/);
      const token = await logInOnOther(DEMO_ACCOUNTS.alice);
      const reply = await post(other.url, token, `/comments/guide/${thread.contextid}`, { text: 'A reply from the other instance', parentid: thread.commentid });
      for (const origin of [api.origin, other.url]) {
        const shown = await body(path, origin);
        expect(shown.replies.map((r: { commentid: number }) => r.commentid)).toEqual([reply.commentid, ...before.replies.map((r: { commentid: number }) => r.commentid)]);
      }
    });

    it('shows a comment on a wiki page edited on another instance (no guide changes with it)', async () => {
      const [{ id: wikiId }] = await api.sql<{ id: number }>(`SELECT id FROM wiki_pages WHERE deleted_at IS NULL ORDER BY id LIMIT 1`);
      const token = await logInOnOther(DEMO_ACCOUNTS.alice);
      const posted = await post(other.url, token, `/comments/wiki/${wikiId}`, { text: 'Stamped wiki comment' });
      const path = `/comments?context=wiki&order=DESC&limit=5`;
      expect((await body(path))[0].text_raw).toBe('Stamped wiki comment');
      expect((await counted(path)).statements).toHaveLength(1);
      const edited = await fetch(`${other.url}/api/2.0/comments/${posted.commentid}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', Authorization: `api ${token}` },
        body: JSON.stringify({ text: 'Stamped wiki comment, edited' }),
      });
      expect(edited.status).toBe(200);
      expect((await body(path))[0].text_raw).toBe('Stamped wiki comment, edited');
      expect((await body(`/comments/${posted.commentid}`, other.url)).text_raw).toBe('Stamped wiki comment, edited');
    });

    it("never serves a signed-in reader's answer to an anonymous one, nor the other way round", async () => {
      const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'Private discussed guide', public: false } });
      expect(created.status).toBe(201);
      const hidden = await post(api.origin, alice, `/comments/guide/${created.body.guideid}`, { text: 'Only for those who may see the guide' });
      const path = `/comments/${hidden.commentid}`;
      for (let i = 0; i < 2; i++) {
        expect((await get(path)).status).toBe(403);
        const own = await api.request('GET', path, { token: alice });
        expect(own.status).toBe(200);
        expect(own.body.text_raw).toBe('Only for those who may see the guide');
      }
      const list = '/comments?context=guide&order=DESC&limit=3';
      expect((await body(list)).map((c: { commentid: number }) => c.commentid)).not.toContain(hidden.commentid);
      expect((await api.request('GET', list, { token: alice })).body.map((c: { commentid: number }) => c.commentid)).toContain(hidden.commentid);
      expect((await body(list)).map((c: { commentid: number }) => c.commentid)).not.toContain(hidden.commentid);
    });
  });

  it('keeps search and suggest answers, and finds a new guide at once', async () => {
    const search = '/search/Quixotic%20hinge?filter=guide';
    expect((await body(search)).totalResults).toBe(0);
    expect((await counted(search)).statements).toHaveLength(1);
    expect((await body('/suggest/quixo?doctypes=guide')).results).toEqual([]);
    expect((await counted('/suggest/quixo?doctypes=guide')).statements).toHaveLength(1);
    const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'Quixotic hinge repair', public: true } });
    expect(created.status).toBe(201);
    expect((await body(search)).results.map((r: { guideid: number }) => r.guideid)).toEqual([created.body.guideid]);
    expect((await body('/suggest/quixo?doctypes=guide')).results.map((r: { guideid: number }) => r.guideid)).toEqual([created.body.guideid]);
  });

  it('builds a search answer once for concurrent misses of it, and serves every one of them the same bytes', async () => {
    const path = '/search/Zephyr%20gasket%20flange?filter=guide,category';
    statements.length = 0;
    const answers = await Promise.all(Array.from({ length: 12 }, () => get(path).then(async (res) => ({ status: res.status, etag: res.headers.get('etag'), text: await res.text() }))));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(new Set(answers.map((a) => a.etag)).size).toBe(1);
    // Every request gets a read of the stamp started after it arrived (requests arriving together
    // share one, see SharedRead); the guides' ranking and the pages' search run once.
    expect(statements.filter((sql) => /websearch_to_tsquery\('english'/.test(sql) && /FROM guides g/.test(sql))).toHaveLength(1);
    expect(statements.filter((sql) => /FROM wiki_pages w/.test(sql) && /websearch_to_tsquery/.test(sql))).toHaveLength(1);
    const stampReads = statements.filter((sql) => /content_changes/.test(sql)).length;
    expect(stampReads).toBeGreaterThanOrEqual(1);
    expect(stampReads).toBeLessThanOrEqual(12);
  });

  it('prunes counted changes without changing the stamp, so kept bodies stay kept', async () => {
    await api.sql("UPDATE guides SET title = title WHERE id = (SELECT min(id) FROM guides)");
    await body('/guides?limit=2');
    const [{ changes }] = await api.sql<{ changes: number }>('SELECT count(*)::int AS changes FROM content_changes');
    expect(changes).toBeGreaterThan(0);
    expect(await api.running.app.get(ContentStampPruning).prune()).toBe(changes);
    expect((await api.sql<{ changes: number }>('SELECT count(*)::int AS changes FROM content_changes'))[0]!.changes).toBe(0);
    expect((await counted('/guides?limit=2')).statements).toHaveLength(1);
  });
});
