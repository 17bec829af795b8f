import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { SUMMARY_KEYS } from './support/guide-shapes.js';

type Who = 'alice' | 'bob' | 'admin';

const idsOf = (res: ApiResponse) => (res.body as { guideid: number }[]).map((g) => g.guideid);
const favoriteIdsOf = (res: ApiResponse) => (res.body as { guide: { guideid: number } }[]).map((f) => f.guide.guideid);
/** The `field`s listed by a 422 body. */
const fieldsOf = (res: ApiResponse) => [...new Set(((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field))];

describe('guides over HTTP: completions, favourites, user guide lists, tags', () => {
  let api: TestApi;
  const token: Record<Who, string> = { alice: '', bob: '', admin: '' };
  const user: Record<Who, number> = { alice: 0, bob: 0, admin: 0 };
  const demo = { opening: 0, battery: 0, joycon: 0, teardown: 0, coffee: 0, draft: 0 };
  let serial = 0;

  /** A new account (so marks tests start from nothing): its id and token. */
  const newUser = async () => {
    serial += 1;
    const name = `marks${serial}${Date.now().toString(36)}`.slice(0, 30);
    const res = await api.request('POST', '/users', {
      appId: DEMO_APP_ID,
      body: { email: `${name}@example.com`, username: `Marks ${name}`, unique_username: name, password: `${name}-long-password` },
    });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return { userid: res.body.userid as number, token: res.body.authToken as string };
  };

  const newGuide = async (authToken: string, body: Record<string, unknown> = {}) => {
    serial += 1;
    const res = await api.request('POST', '/guides', { token: authToken, body: { category: 'iPhone 12', type: 'repair', title: `Marks guide ${serial}`, public: true, ...body } });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { guideid: number; revisionid: number };
  };

  const marks = async (kind: string, userId: number, guideId: number) =>
    (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM guide_marks WHERE kind = $1 AND user_id = $2 AND guide_id = $3', [kind, userId, guideId]))[0]!.n;
  const events = async (type: string, userId: number, guideId: number) =>
    api.sql<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM guide_events_outbox WHERE type = $1 AND (payload->>'userId')::int = $2 AND (payload->>'guideId')::int = $3 ORDER BY id`,
      [type, userId, guideId],
    );

  beforeAll(async () => {
    api = await startTestApi();
    for (const who of ['alice', 'bob', 'admin'] as const) {
      token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
      user[who] = (await api.request('GET', '/user', { token: token[who] })).body.userid;
    }
    const rows = await api.sql<{ id: number; title: string }>('SELECT id, title FROM guides');
    const by = (prefix: string) => rows.find((r) => r.title.startsWith(prefix))!.id;
    Object.assign(demo, {
      opening: by('iPhone 12 Opening'),
      battery: by('iPhone 12 Battery'),
      joycon: by('Joy-Con'),
      teardown: by('MacBook Pro'),
      coffee: by('Coffee Maker'),
      draft: by('Nintendo Switch Fan'),
    });
  });
  afterAll(() => api.close());

  describe('PUT/DELETE /guides/{id}/completed', () => {
    it('marks a guide completed for the caller: 204, completed: true for them only, one GuideCompleted event', async () => {
      const me = await newUser();
      const guide = await newGuide(token.bob);
      const res = await api.request('PUT', `/guides/${guide.guideid}/completed`, { token: me.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await api.request('GET', `/guides/${guide.guideid}`, { token: me.token })).body.completed).toBe(true);
      expect((await api.request('GET', `/guides/${guide.guideid}`, { token: token.bob })).body.completed).toBe(false);
      expect(await marks('completion', me.userid, guide.guideid)).toBe(1);
      const written = await events('GuideCompleted', me.userid, guide.guideid);
      expect(written).toHaveLength(1);
      expect(written[0]!.payload).toMatchObject({ type: 'GuideCompleted', guideId: guide.guideid, userId: me.userid, authorId: user.bob, at: expect.any(Number) });
    });

    it('is once per user: completing twice is a 204 that writes no second mark and no second event', async () => {
      const me = await newUser();
      const guide = await newGuide(token.bob);
      for (let i = 0; i < 3; i++) expect((await api.request('PUT', `/guides/${guide.guideid}/completed`, { token: me.token, body: {} })).status).toBe(204);
      expect(await marks('completion', me.userid, guide.guideid)).toBe(1);
      expect(await events('GuideCompleted', me.userid, guide.guideid)).toHaveLength(1);
    });

    it('writes one mark and one event for 10 concurrent completions', async () => {
      const me = await newUser();
      const guide = await newGuide(token.bob);
      const results = await Promise.all(Array.from({ length: 10 }, () => api.request('PUT', `/guides/${guide.guideid}/completed`, { token: me.token })));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(204));
      expect(await marks('completion', me.userid, guide.guideid)).toBe(1);
      expect(await events('GuideCompleted', me.userid, guide.guideid)).toHaveLength(1);
    });

    it('undoes a completion: DELETE 204, idempotent, completed: false again', async () => {
      const me = await newUser();
      const guide = await newGuide(token.bob);
      expect((await api.request('PUT', `/guides/${guide.guideid}/completed`, { token: me.token })).status).toBe(204);
      for (let i = 0; i < 2; i++) {
        const res = await api.request('DELETE', `/guides/${guide.guideid}/completed`, { token: me.token });
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
      }
      expect(await marks('completion', me.userid, guide.guideid)).toBe(0);
      expect((await api.request('GET', `/guides/${guide.guideid}`, { token: me.token })).body.completed).toBe(false);
      // Never completed: still 204.
      expect((await api.request('DELETE', `/guides/${demo.coffee}/completed`, { token: me.token })).status).toBe(204);
    });

    it('accepts {} or {langid}; refuses other body fields (422)', async () => {
      const me = await newUser();
      expect((await api.request('PUT', `/guides/${demo.coffee}/completed`, { token: me.token, body: { langid: 'en' } })).status).toBe(204);
      const bad = await api.request('PUT', `/guides/${demo.teardown}/completed`, { token: me.token, body: { completed: true } });
      expect(bad.status).toBe(422);
      expect(fieldsOf(bad)).toEqual(['completed']);
      expect(await marks('completion', me.userid, demo.teardown)).toBe(0);
    });

    it('401 without token; 404 for an unknown guide or one the caller may not see; the author may complete their private guide', async () => {
      expect((await api.request('PUT', `/guides/${demo.coffee}/completed`)).status).toBe(401);
      expect((await api.request('DELETE', `/guides/${demo.coffee}/completed`)).status).toBe(401);
      const me = await newUser();
      for (const id of ['999999', 'abc', String(demo.draft)]) {
        const res = await api.request('PUT', `/guides/${id}/completed`, { token: me.token });
        expect({ id, status: res.status }).toEqual({ id, status: 404 });
        expect(res.body).toEqual({ error: true, message: 'Guide not found' });
      }
      expect((await api.request('DELETE', '/guides/999999/completed', { token: me.token })).status).toBe(404);
      const mine = await newGuide(me.token, { public: false });
      expect((await api.request('PUT', `/guides/${mine.guideid}/completed`, { token: me.token })).status).toBe(204);
    });
  });

  describe('favourites', () => {
    it('GET /user/favorites/guides: [{date, guide}] of the caller (bob favourited the battery guide); 401 without token', async () => {
      const res = await api.request('GET', '/user/favorites/guides', { token: token.bob });
      expect(res.status).toBe(200);
      expect(favoriteIdsOf(res)).toEqual([demo.battery]);
      const [favorite] = res.body;
      expect(Object.keys(favorite).sort()).toEqual(['date', 'guide']);
      expect(Number.isInteger(favorite.date)).toBe(true);
      expect(Math.abs(favorite.date - Date.now() / 1000)).toBeLessThan(3600);
      expect(Object.keys(favorite.guide).sort()).toEqual(SUMMARY_KEYS);
      expect(favorite.guide).toMatchObject({ dataType: 'guide', guideid: demo.battery, title: 'iPhone 12 Battery Replacement' });
      expect((await api.request('GET', '/user/favorites/guides')).status).toBe(401);
    });

    it('PUT favourites (204, idempotent); the list is newest first; DELETE removes (204, even when not a favourite)', async () => {
      const me = await newUser();
      const first = await newGuide(token.alice);
      const second = await newGuide(token.alice);
      const third = await newGuide(token.bob);
      for (const g of [first, second, third]) {
        const res = await api.request('PUT', `/user/favorites/guides/${g.guideid}`, { token: me.token, body: {} });
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
      }
      const mine = () => api.request('GET', '/user/favorites/guides', { token: me.token });
      expect(favoriteIdsOf(await mine())).toEqual([third.guideid, second.guideid, first.guideid]);
      const dates = (await mine()).body.map((f: { date: number }) => f.date) as number[];
      expect([...dates].sort((a, b) => b - a)).toEqual(dates);
      expect((await api.request('GET', `/guides/${second.guideid}`, { token: me.token })).body.favorited).toBe(true);
      expect((await api.request('GET', `/guides/${second.guideid}`, { token: token.alice })).body.favorited).toBe(false);

      // Again: no second row, and the first date stays (the order does not change).
      expect((await api.request('PUT', `/user/favorites/guides/${first.guideid}`, { token: me.token, body: { langid: 'en' } })).status).toBe(204);
      expect(await marks('favorite', me.userid, first.guideid)).toBe(1);
      expect(favoriteIdsOf(await mine())).toEqual([third.guideid, second.guideid, first.guideid]);

      expect(favoriteIdsOf(await api.request('GET', '/user/favorites/guides?limit=1', { token: me.token }))).toEqual([third.guideid]);
      expect(favoriteIdsOf(await api.request('GET', '/user/favorites/guides?limit=1&offset=1', { token: me.token }))).toEqual([second.guideid]);

      for (let i = 0; i < 2; i++) expect((await api.request('DELETE', `/user/favorites/guides/${second.guideid}`, { token: me.token })).status).toBe(204);
      expect(favoriteIdsOf(await mine())).toEqual([third.guideid, first.guideid]);
      expect((await api.request('GET', `/guides/${second.guideid}`, { token: me.token })).body.favorited).toBe(false);
    });

    it('GET /users/{id}/favorites/guides: public guides only; the caller\'s own list includes private ones', async () => {
      const me = await newUser();
      const hidden = await newGuide(me.token, { public: false });
      expect((await api.request('PUT', `/user/favorites/guides/${demo.coffee}`, { token: me.token })).status).toBe(204);
      expect((await api.request('PUT', `/user/favorites/guides/${hidden.guideid}`, { token: me.token })).status).toBe(204);
      expect(favoriteIdsOf(await api.request('GET', '/user/favorites/guides', { token: me.token }))).toEqual([hidden.guideid, demo.coffee]);
      const theirs = await api.request('GET', `/users/${me.userid}/favorites/guides`);
      expect(theirs.status).toBe(200);
      expect(favoriteIdsOf(theirs)).toEqual([demo.coffee]);
      expect(Object.keys(theirs.body[0]).sort()).toEqual(['date', 'guide']);
      expect(favoriteIdsOf(await api.request('GET', `/users/${user.bob}/favorites/guides`))).toEqual([demo.battery]);
    });

    it('404 for an unknown user; 404 to favourite an unknown guide or one the caller may not see; 401 without token', async () => {
      for (const id of ['999999', 'abc']) expect((await api.request('GET', `/users/${id}/favorites/guides`)).status).toBe(404);
      const me = await newUser();
      for (const id of ['999999', 'abc', String(demo.draft)]) {
        const res = await api.request('PUT', `/user/favorites/guides/${id}`, { token: me.token });
        expect({ id, status: res.status }).toEqual({ id, status: 404 });
      }
      expect((await api.request('DELETE', '/user/favorites/guides/999999', { token: me.token })).status).toBe(404);
      expect((await api.request('PUT', `/user/favorites/guides/${demo.coffee}`)).status).toBe(401);
      expect((await api.request('DELETE', `/user/favorites/guides/${demo.coffee}`)).status).toBe(401);
      expect((await api.request('GET', '/user/favorites/guides', { token: me.token })).body).toEqual([]);
    });

    it('leaves deleted guides out of favourites', async () => {
      const me = await newUser();
      const guide = await newGuide(token.alice);
      expect((await api.request('PUT', `/user/favorites/guides/${guide.guideid}`, { token: me.token })).status).toBe(204);
      expect((await api.request('DELETE', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, { token: token.alice })).status).toBe(204);
      expect(favoriteIdsOf(await api.request('GET', '/user/favorites/guides', { token: me.token }))).toEqual([]);
      expect(favoriteIdsOf(await api.request('GET', `/users/${me.userid}/favorites/guides`))).toEqual([]);
    });
  });

  describe('user guide lists', () => {
    const authored = async (userId: number, publicOnly: boolean) =>
      (
        await api.sql<{ id: number }>(`SELECT id FROM guides WHERE author_id = $1 AND deleted_at IS NULL ${publicOnly ? 'AND is_public' : ''} ORDER BY id`, [userId])
      ).map((r) => r.id);

    it('GET /user/guides needs a token AND an app id; lists the caller\'s guides, private ones included', async () => {
      expect((await api.request('GET', '/user/guides', { appId: DEMO_APP_ID })).status).toBe(401);
      const noApp = await api.request('GET', '/user/guides', { token: token.bob });
      expect(noApp.status).toBe(400);
      expect(noApp.body).toMatchObject({ message: 'Invalid app id' });
      expect((await api.request('GET', '/user/guides', { token: token.bob, appId: 'no-such-app' })).status).toBe(400);

      const res = await api.request('GET', '/user/guides?limit=200', { token: token.bob, appId: DEMO_APP_ID });
      expect(res.status).toBe(200);
      expect(idsOf(res)).toEqual(await authored(user.bob, false));
      expect(idsOf(res)).toEqual(expect.arrayContaining([demo.joycon, demo.teardown, demo.draft]));
      expect(res.body.find((g: { guideid: number }) => g.guideid === demo.draft)).toMatchObject({ public: false });
      for (const summary of res.body) expect(Object.keys(summary).sort()).toEqual(SUMMARY_KEYS);
    });

    it('GET /user/guides pages and orders', async () => {
      const all = await authored(user.bob, false);
      const page = (query: string) => api.request('GET', `/user/guides?${query}`, { token: token.bob, appId: DEMO_APP_ID });
      expect(idsOf(await page('order=DESC&limit=200'))).toEqual([...all].reverse());
      expect(idsOf(await page('limit=1&offset=1'))).toEqual(all.slice(1, 2));
      expect((await page('limit=abc')).status).toBe(400);
    });

    it('GET /users/{id}/guides: the user\'s public guides, paged; unknown user 404', async () => {
      const res = await api.request('GET', `/users/${user.bob}/guides`);
      expect(res.status).toBe(200);
      expect(idsOf(res)).toEqual(await authored(user.bob, true));
      expect(idsOf(res)).not.toContain(demo.draft);
      expect(idsOf(res)).toEqual(expect.arrayContaining([demo.joycon, demo.teardown]));
      for (const summary of res.body) expect(Object.keys(summary).sort()).toEqual(SUMMARY_KEYS);
      const all = idsOf(res);
      expect(idsOf(await api.request('GET', `/users/${user.bob}/guides?limit=1&offset=1`))).toEqual(all.slice(1, 2));
      expect(idsOf(await api.request('GET', `/users/${user.bob}/guides?order=DESC`))).toEqual([...all].reverse());
      expect((await api.request('GET', `/users/${user.bob}/guides?limit=abc`)).status).toBe(400);
      const me = await newUser();
      expect((await api.request('GET', `/users/${me.userid}/guides`)).body).toEqual([]);
      for (const id of ['999999', 'abc']) {
        const unknown = await api.request('GET', `/users/${id}/guides`);
        expect(unknown.status).toBe(404);
        expect(unknown.body).toMatchObject({ error: true, message: expect.any(String) });
      }
    });

    it('GET /user/completions: the caller\'s completed guides, private ones included, by guideid; 401 without token', async () => {
      const bob = await api.request('GET', '/user/completions', { token: token.bob });
      expect(bob.status).toBe(200);
      expect(idsOf(bob)).toEqual([demo.opening]);
      expect(Object.keys(bob.body[0]).sort()).toEqual(SUMMARY_KEYS);
      expect(idsOf(await api.request('GET', '/user/completions', { token: token.alice }))).toEqual([demo.joycon]);
      expect((await api.request('GET', '/user/completions')).status).toBe(401);

      const me = await newUser();
      const hidden = await newGuide(me.token, { public: false });
      for (const id of [demo.teardown, hidden.guideid, demo.battery]) expect((await api.request('PUT', `/guides/${id}/completed`, { token: me.token })).status).toBe(204);
      const mine = await api.request('GET', '/user/completions', { token: me.token });
      expect(idsOf(mine)).toEqual([demo.battery, demo.teardown, hidden.guideid].sort((a, b) => a - b));
      expect(idsOf(await api.request('GET', '/user/completions?limit=1&offset=1', { token: me.token }))).toEqual(idsOf(mine).slice(1, 2));
    });

    it('GET /users/{id}/completions: public completed guides only, paged; unknown user 404', async () => {
      const alice = await api.request('GET', `/users/${user.alice}/completions`);
      expect(alice.status).toBe(200);
      expect(idsOf(alice)).toEqual([demo.joycon]);
      expect(Object.keys(alice.body[0]).sort()).toEqual(SUMMARY_KEYS);

      const me = await newUser();
      const hidden = await newGuide(me.token, { public: false });
      for (const id of [demo.coffee, hidden.guideid, demo.battery]) expect((await api.request('PUT', `/guides/${id}/completed`, { token: me.token })).status).toBe(204);
      const theirs = await api.request('GET', `/users/${me.userid}/completions`);
      expect(idsOf(theirs)).toEqual([demo.battery, demo.coffee].sort((a, b) => a - b));
      expect(idsOf(await api.request('GET', `/users/${me.userid}/completions?limit=1`))).toEqual(idsOf(theirs).slice(0, 1));
      expect((await api.request('GET', `/users/${me.userid}/completions?offset=abc`)).status).toBe(400);
      for (const id of ['999999', 'abc']) expect((await api.request('GET', `/users/${id}/completions`)).status).toBe(404);
    });
  });

  describe('tags', () => {
    const tags = (id: number | string, who: Who | null = null) => api.request('GET', `/guides/${id}/tags`, { token: who ? token[who] : undefined });
    const tag = (method: 'PUT' | 'DELETE', id: number | string, body: unknown, who: Who | null = 'admin') =>
      api.request(method, `/guides/${id}/tag`, { token: who ? token[who] : undefined, body });

    it('GET /guides/{id}/tags: [] for an untagged public guide', async () => {
      const res = await tags(demo.battery);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('GET /guides/{id}/tags: 403 "Guide is private." for a private, unknown, malformed or deleted guide', async () => {
      const deleted = await newGuide(token.alice);
      expect((await api.request('DELETE', `/guides/${deleted.guideid}?revisionid=${deleted.revisionid}`, { token: token.alice })).status).toBe(204);
      for (const id of [String(demo.draft), '999999', 'abc', String(deleted.guideid)]) {
        const res = await tags(id);
        expect({ id, status: res.status }).toEqual({ id, status: 403 });
        expect(res.body).toMatchObject({ message: 'Guide is private.' });
      }
      expect((await tags(demo.draft, 'alice')).status).toBe(403);
      // Its author and Admins see the tags of a private guide.
      expect((await tags(demo.draft, 'bob')).status).toBe(200);
      expect((await tags(demo.draft, 'admin')).status).toBe(200);
    });

    it('lets an Admin add tags: 200, the guide; listed alphabetically, once each; no new revision', async () => {
      const guide = await newGuide(token.alice);
      for (const name of ['zeta', 'battery', 'alpha', 'battery']) {
        const res = await tag('PUT', guide.guideid, { tag: name });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ guideid: guide.guideid, revisionid: guide.revisionid });
        expect(res.body).not.toHaveProperty('tags');
      }
      expect((await tags(guide.guideid)).body).toEqual(['alpha', 'battery', 'zeta']);
      const [row] = await api.sql<{ revisionid: number }>('SELECT revisionid FROM guides WHERE id = $1', [guide.guideid]);
      expect(row!.revisionid).toBe(guide.revisionid);
    });

    it('lets an Admin remove a tag (200); an unknown tag is a 404', async () => {
      const guide = await newGuide(token.alice);
      expect((await tag('PUT', guide.guideid, { tag: 'screen' })).status).toBe(200);
      expect((await tag('PUT', guide.guideid, { tag: 'battery' })).status).toBe(200);
      const res = await tag('DELETE', guide.guideid, { tag: 'screen' });
      expect(res.status).toBe(200);
      expect(res.body.guideid).toBe(guide.guideid);
      expect((await tags(guide.guideid)).body).toEqual(['battery']);
      expect((await tag('DELETE', guide.guideid, { tag: 'screen' })).status).toBe(404);
    });

    it('refuses tag moderation to non-admins, the author included (403), and without token (401)', async () => {
      const guide = await newGuide(token.alice);
      for (const method of ['PUT', 'DELETE'] as const) {
        for (const who of ['alice', 'bob'] as const) {
          const res = await tag(method, guide.guideid, { tag: 'battery' }, who);
          expect({ method, who, status: res.status }).toEqual({ method, who, status: 403 });
          expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
        }
        expect((await tag(method, guide.guideid, { tag: 'battery' }, null)).status).toBe(401);
      }
      expect((await tags(guide.guideid)).body).toEqual([]);
    });

    it('refuses bad tags (422, field tag) and unknown guides (404)', async () => {
      const guide = await newGuide(token.alice);
      for (const bad of ['', '   ', 'x'.repeat(33), '!bang', 42, null]) {
        const res = await tag('PUT', guide.guideid, { tag: bad });
        expect({ bad, status: res.status, fields: fieldsOf(res) }).toEqual({ bad, status: 422, fields: ['tag'] });
      }
      const unknownField = await tag('PUT', guide.guideid, { tag: 'ok', colour: 'red' });
      expect(unknownField.status).toBe(422);
      expect(fieldsOf(unknownField)).toEqual(['colour']);
      expect((await tag('PUT', guide.guideid, { tag: 'x'.repeat(32) })).status).toBe(200);
      for (const id of ['999999', 'abc']) expect((await tag('PUT', id, { tag: 'ok' })).status).toBe(404);
      expect((await tags(guide.guideid)).body).toEqual(['x'.repeat(32)]);
    });

    it('lets an Admin tag a private guide; its tags stay hidden from others', async () => {
      const hidden = await newGuide(token.alice, { public: false });
      expect((await tag('PUT', hidden.guideid, { tag: 'secret' })).status).toBe(200);
      expect((await tags(hidden.guideid)).status).toBe(403);
      expect((await tags(hidden.guideid, 'alice')).body).toEqual(['secret']);
    });
  });
});
