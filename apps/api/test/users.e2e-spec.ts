import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { anImage } from './support/images.js';

/** UserSummary in user lists (reference §3.2): no `privileges`. */
const SUMMARY_KEYS = ['image', 'join_date', 'reputation', 'teams', 'unique_username', 'url', 'userid', 'username'];

/** UserInfo (reference §3.3) as anyone sees it: no `url`, no viewer-only fields. */
const INFO_KEYS = [
  'about_raw', 'about_rendered', 'badge_counts', 'certification_count', 'greatest_privilege', 'image', 'join_date', 'langid', 'location',
  'privileges', 'reputation', 'summary', 'teams', 'unique_username', 'userid', 'username',
];
const VIEWER_KEYS = ['links', 'unread_notification_count'];
const sorted = (keys: string[]) => [...keys].sort();

/** The standing other contexts add to every user object: right names, right types. */
function expectStanding(body: Record<string, unknown>, { badges = true } = {}): void {
  expect(Number.isInteger(body['reputation'])).toBe(true);
  expect(Array.isArray(body['teams'])).toBe(true);
  for (const team of body['teams'] as unknown[]) expect(Number.isInteger(team)).toBe(true);
  if (badges) {
    expect(Object.keys(body['badge_counts'] as object).sort()).toEqual(['bronze', 'gold', 'silver', 'total']);
    for (const n of Object.values(body['badge_counts'] as object)) expect(Number.isInteger(n)).toBe(true);
  }
}

/** The `field`s listed by a 422 body. */
const fieldsOf = (res: ApiResponse) => [...new Set(((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field))];

describe('users over HTTP', () => {
  let api: TestApi;
  const statements: string[] = [];
  let serial = 0;

  /** Registers an account over HTTP; returns its id, token and registration response. */
  const register = async (prefix = 'u') => {
    serial += 1;
    const name = `${prefix}${serial}x${Date.now().toString(36)}`.slice(0, 30);
    const res = await api.request('POST', '/users', {
      appId: DEMO_APP_ID,
      body: { email: `${name}@example.com`, username: `User ${name}`, unique_username: name, password: `${name}-long-password` },
    });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return { userid: res.body.userid as number, token: res.body.authToken as string, name, res };
  };

  /** Active ids as PostgreSQL orders them: what GET /users must agree with. */
  const activeIds = async (order: 'ASC' | 'DESC', limit: number, offset = 0, joinedSince?: number) =>
    (
      await api.sql<{ id: number }>(
        `SELECT id FROM users WHERE status = 'active' AND ($1::bigint IS NULL OR joined_at >= to_timestamp($1)) ORDER BY id ${order} LIMIT $2 OFFSET $3`,
        [joinedSince ?? null, limit, offset],
      )
    ).map((r) => r.id);

  const ids = (res: ApiResponse) => (res.body as { userid: number }[]).map((u) => u.userid);
  const patch = (token: string | undefined, body: unknown) => api.request('PATCH', '/user', { token, body });
  const stored = async (id: number) =>
    (await api.sql('SELECT username, about, summary, location, langid FROM users WHERE id = $1', [id]))[0] as Record<string, string | null>;

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    // Enough accounts to page past 200 (inserted directly: registration is tested elsewhere).
    await api.sql(`
      INSERT INTO users (id, email, username, unique_username, password_hash, role, status, joined_at, about, langid)
      SELECT id, 'bulk' || id || '@example.com', 'Bulk ' || id, 'bulk' || id, 'x', 'User', 'active',
             timestamptz '2026-02-01 00:00:00+00' + id * interval '1 minute', '', 'en'
      FROM (SELECT nextval('users_id_seq')::int AS id FROM generate_series(1, 230)) AS ids`);
  });
  afterAll(() => api.close());

  describe('GET /users', () => {
    it('lists active accounts by userid as UserSummary items without privileges, anonymously', async () => {
      const res = await api.request('GET', '/users');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(ids(res)).toEqual(await activeIds('ASC', 20));
      for (const item of res.body) {
        expect(sorted(Object.keys(item))).toEqual(sorted(SUMMARY_KEYS));
        expectStanding(item, { badges: false });
      }
      const alice = (res.body as Record<string, unknown>[]).find((u) => u['unique_username'] === 'alice');
      expect(alice).toMatchObject({ username: 'Alice Fixwell', image: anImage(), join_date: expect.any(Number), url: expect.stringMatching(/\/User\/\d+\/Alice\+Fixwell$/) });
    });

    it('orders ASC by default and DESC on request (any case); another order is a 400', async () => {
      expect(ids(await api.request('GET', '/users?order=DESC'))).toEqual(await activeIds('DESC', 20));
      expect(ids(await api.request('GET', '/users?order=desc&limit=5'))).toEqual(await activeIds('DESC', 5));
      expect(ids(await api.request('GET', '/users?order=asc&limit=5'))).toEqual(await activeIds('ASC', 5));
      const bad = await api.request('GET', '/users?order=sideways');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: true, message: "Parameter 'order' must be ASC or DESC" });
    });

    it('pages with limit and offset, clamping limit to 200', async () => {
      expect(ids(await api.request('GET', '/users?limit=7&offset=3'))).toEqual(await activeIds('ASC', 7, 3));
      expect(ids(await api.request('GET', '/users?limit=7&offset=3&order=DESC'))).toEqual(await activeIds('DESC', 7, 3));
      const clamped = await api.request('GET', '/users?limit=100000');
      expect(clamped.status).toBe(200);
      expect(clamped.body).toHaveLength(200);
      expect(ids(clamped)).toEqual(await activeIds('ASC', 200));
      expect((await api.request('GET', '/users?limit=0')).body).toEqual([]);
    });

    it('answers offsets up to 1000 and refuses deeper ones with 422, as the original', async () => {
      const atLimit = await api.request('GET', '/users?offset=1000');
      expect(atLimit.status).toBe(200);
      expect(atLimit.body).toEqual([]);
      for (const offset of ['1001', '5000', '999999999999']) {
        const res = await api.request('GET', `/users?offset=${offset}`);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ error: true, message: 'Offset must be <= 1000', errors: [{ field: 'offset', message: 'Offset must be <= 1000' }] });
      }
    });

    it('answers a malformed limit or offset with 400, as every list does', async () => {
      for (const query of ['limit=-1', 'limit=abc', 'offset=-5', 'offset=1.5']) {
        const res = await api.request('GET', `/users?${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: true, message: expect.stringMatching(/^Parameter '(limit|offset)'/) });
      }
    });

    it('keeps accounts that joined at joinedSince (UNIX seconds) or later', async () => {
      const [row] = await api.sql<{ id: number; at: number }>(`SELECT id, extract(epoch FROM joined_at)::bigint AS at FROM users WHERE username = 'Bulk ' || (SELECT max(id) - 5 FROM users WHERE email LIKE 'bulk%')`);
      const since = Number(row!.at);
      const res = await api.request('GET', `/users?joinedSince=${since}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(await activeIds('ASC', 20, 0, since));
      // Bulk accounts joined a minute apart, in id order: this one is in, the one before is not.
      expect(ids(res)).toContain(row!.id);
      expect(ids(res)).not.toContain(row!.id - 1);
      expect(ids(await api.request('GET', `/users?joinedSince=${since}&order=DESC&limit=2`))).toEqual(await activeIds('DESC', 2, 0, since));
      expect((await api.request('GET', '/users?joinedSince=99999999999')).body).toEqual([]);
    });

    it('answers a joinedSince that is not UNIX seconds with 400 (as modifiedSince elsewhere)', async () => {
      for (const value of ['yesterday', '-5', '1.5', '2026-01-01']) {
        const res = await api.request('GET', `/users?joinedSince=${encodeURIComponent(value)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: true, message: "Parameter 'joinedSince' must be a UNIX timestamp in seconds" });
      }
    });

    it('never lists a disabled account, and finds no disabled account', async () => {
      const { userid } = await register('gone');
      const before = await api.request('GET', '/users?order=DESC&limit=200');
      expect(ids(before)).toContain(userid);
      await api.sql(`UPDATE users SET status = 'disabled' WHERE id = $1`, [userid]);
      const after = await api.request('GET', '/users?order=DESC&limit=200');
      expect(ids(after)).not.toContain(userid);
      expect(ids(after)).toEqual(await activeIds('DESC', 200));
      expect((await api.request('GET', `/users/${userid}`)).status).toBe(404);
    });

    it('reads the page in one statement on users, and the standing in a fixed batch, whatever the page size', async () => {
      const run = async (path: string) => {
        const before = statements.length;
        expect((await api.request('GET', path)).status).toBe(200);
        return statements.slice(before).filter((sql) => !/^(begin|commit|rollback)/i.test(sql.trim()));
      };
      const small = await run('/users?limit=2');
      const large = await run('/users?limit=200');
      expect(large.length).toBe(small.length);
      for (const sqls of [small, large]) expect(sqls.filter((sql) => /\bfrom\s+"?users"?\b/i.test(sql))).toHaveLength(1);
    });
  });

  describe('GET /users/{id}', () => {
    it('shows the UserInfo to anyone, without url and without viewer-only fields', async () => {
      const { userid, name } = await register('view');
      const res = await api.request('GET', `/users/${userid}`);
      expect(res.status).toBe(200);
      expect(sorted(Object.keys(res.body))).toEqual(sorted(INFO_KEYS));
      expect(res.body).toMatchObject({
        userid,
        username: `User ${name}`,
        unique_username: name,
        privileges: ['User'],
        greatest_privilege: 'User',
        about_raw: false,
        about_rendered: false,
        summary: null,
        location: null,
        langid: 'en',
        certification_count: 0,
      });
      expectStanding(res.body);
    });

    it('adds the viewer-only fields only when the viewer is that user', async () => {
      const me = await register('self');
      const other = await register('other');
      const mine = await api.request('GET', `/users/${me.userid}`, { token: me.token });
      expect(sorted(Object.keys(mine.body))).toEqual(sorted([...INFO_KEYS, ...VIEWER_KEYS]));
      expect(mine.body).toMatchObject({ links: {}, unread_notification_count: 0 });
      expect(mine.body.authToken).toBeUndefined();

      const seenByOther = await api.request('GET', `/users/${me.userid}`, { token: other.token });
      expect(sorted(Object.keys(seenByOther.body))).toEqual(sorted(INFO_KEYS));

      const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
      const seenByAdmin = await api.request('GET', `/users/${me.userid}`, { token: admin });
      expect(sorted(Object.keys(seenByAdmin.body))).toEqual(sorted(INFO_KEYS));
      const adminId = (await api.request('GET', '/user', { token: admin })).body.userid as number;
      expect((await api.request('GET', `/users/${adminId}`, { token: admin })).body.links).toEqual({ manage: '/Manage' });
    });

    it('ignores an invalid token on this public route', async () => {
      const { userid } = await register('tok');
      const res = await api.request('GET', `/users/${userid}`, { token: 'not-a-real-token-at-all' });
      expect(res.status).toBe(200);
      expect(sorted(Object.keys(res.body))).toEqual(sorted(INFO_KEYS));
    });

    it.each(['999999', '0', '-1', 'abc', '2147483648', '99999999999999999999', '1.5'])('answers %p with 404', async (id) => {
      const res = await api.request('GET', `/users/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: true, message: 'User not found' });
    });
  });

  describe('PATCH /user', () => {
    it('needs a valid token (401)', async () => {
      const anonymous = await patch(undefined, { summary: 'x' });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ error: true });
      expect((await patch('not-a-real-token-at-all', { summary: 'x' })).status).toBe(401);
    });

    it('edits the profile and answers the UserInfo as its user sees it', async () => {
      const me = await register('edit');
      const res = await patch(me.token, { username: '  Jane   Fixer ', about: "I fix '''phones'''.", summary: 'Phone fixer', location: 'Lyon', langid: 'fr' });
      expect(res.status).toBe(200);
      expect(sorted(Object.keys(res.body))).toEqual(sorted([...INFO_KEYS, ...VIEWER_KEYS]));
      expect(res.body).toMatchObject({
        userid: me.userid,
        username: 'Jane Fixer',
        about_raw: "I fix '''phones'''.",
        summary: 'Phone fixer',
        location: 'Lyon',
        langid: 'fr',
        links: {},
        unread_notification_count: 0,
      });
      expect(res.body.about_rendered).toContain('<strong>phones</strong>');
      expectStanding(res.body);

      const seen = await api.request('GET', `/users/${me.userid}`);
      expect(seen.body).toMatchObject({ username: 'Jane Fixer', about_raw: "I fix '''phones'''.", about_rendered: res.body.about_rendered, summary: 'Phone fixer', location: 'Lyon', langid: 'fr' });
      expect((await api.request('GET', '/user', { token: me.token })).body).toMatchObject({ username: 'Jane Fixer', langid: 'fr' });
    });

    it('renders about safely: markup becomes HTML, HTML stays text', async () => {
      const me = await register('safe');
      const res = await patch(me.token, { about: '<script>alert(1)</script>\n\n[link|javascript:alert(1)|click]' });
      expect(res.status).toBe(200);
      expect(res.body.about_raw).toBe('<script>alert(1)</script>\n\n[link|javascript:alert(1)|click]');
      expect(res.body.about_rendered).not.toMatch(/<script|href="javascript:/i);
      expect(res.body.about_rendered).toContain('&lt;script&gt;');
    });

    it('changes only the fields sent; null or blank clears about, summary and location', async () => {
      const me = await register('partial');
      await patch(me.token, { about: 'About', summary: 'Summary', location: 'Lyon' });
      const one = await patch(me.token, { location: 'Paris' });
      expect(one.body).toMatchObject({ about_raw: 'About', summary: 'Summary', location: 'Paris', langid: 'en' });
      const cleared = await patch(me.token, { about: null, summary: '   ', location: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ about_raw: false, about_rendered: false, summary: null, location: null });
      const unchanged = await patch(me.token, {});
      expect(unchanged.status).toBe(200);
      expect(unchanged.body).toMatchObject({ about_raw: false, summary: null, location: null, username: `User ${me.name}` });
    });

    it('answers the caller, not whoever the body names', async () => {
      const me = await register('me');
      const other = await register('notme');
      const res = await patch(me.token, { summary: 'Mine' });
      expect(res.body.userid).toBe(me.userid);
      expect((await stored(other.userid))['summary']).toBeNull();
    });

    describe('refuses bad input with 422, changing nothing', () => {
      let me: { userid: number; token: string };
      let before: Record<string, unknown>;

      beforeAll(async () => {
        me = await register('bad');
        expect((await patch(me.token, { about: 'Kept', summary: 'Kept', location: 'Kept', langid: 'de' })).status).toBe(200);
        before = await stored(me.userid);
      });
      afterEach(async () => {
        expect(await stored(me.userid)).toEqual(before);
      });

      it.each<[string, unknown, string[]]>([
        ['an unknown field', { summary: 'x', nickname: 'Janie' }, ['nickname']],
        ['a field that is not editable', { unique_username: 'other' }, ['unique_username']],
        ['another read-only field', { reputation: 1000000 }, ['reputation']],
        ['a display name that is not text', { username: 5 }, ['username']],
        ['an about that is an object', { about: { text: 'x' } }, ['about']],
        ['a summary that is a number', { summary: 12 }, ['summary']],
        ['a location that is a list', { location: ['Lyon'] }, ['location']],
        ['a langid that is a number', { langid: 12 }, ['langid']],
        ['a langid in capitals', { langid: 'EN' }, ['langid']],
        ['a langid of three letters', { langid: 'fra' }, ['langid']],
        ['a null langid', { langid: null }, ['langid']],
        ['a blank display name', { username: '   ' }, ['username']],
        ['a null display name', { username: null }, ['username']],
        ['a display name over 60 characters', { username: 'n'.repeat(61) }, ['username']],
        ['an about over 10000 characters', { about: 'a'.repeat(10_001) }, ['about']],
        ['a summary over 255 characters', { summary: 's'.repeat(256) }, ['summary']],
        ['a location over 100 characters', { location: 'l'.repeat(101) }, ['location']],
        ['a location with a control character', { location: 'Ly\u0007on' }, ['location']],
        ['several broken fields, valid ones included', { username: '', summary: 'fine', langid: 'x' }, ['username', 'langid']],
      ])('%s', async (_case, body, fields) => {
        const res = await patch(me.token, body);
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
        expect(fieldsOf(res)).toEqual(fields);
      });

      it('a body that is not a JSON object', async () => {
        for (const body of ['[1, 2]', '"text"', '42']) {
          const res = await patch(me.token, body);
          expect(res.status).toBe(422);
          expect(fieldsOf(res)).toEqual(['(body)']);
        }
      });

      it('invalid JSON is a 400', async () => {
        const res = await patch(me.token, '{"summary": ');
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: true });
      });
    });

    it('never loses a field to a concurrent edit of other fields', async () => {
      const me = await register('race');
      for (let round = 1; round <= 8; round++) {
        const results = await Promise.all([
          patch(me.token, { about: `About ${round}` }),
          patch(me.token, { summary: `Summary ${round}` }),
          patch(me.token, { location: `Location ${round}` }),
          patch(me.token, { username: `Racer ${round}` }),
          patch(me.token, { langid: round % 2 ? 'de' : 'fr' }),
        ]);
        expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
        expect(await stored(me.userid)).toEqual({ about: `About ${round}`, summary: `Summary ${round}`, location: `Location ${round}`, username: `Racer ${round}`, langid: round % 2 ? 'de' : 'fr' });
      }
    });

    it('reads the account under a row lock in the transaction that writes it', async () => {
      const me = await register('lock');
      const before = statements.length;
      expect((await patch(me.token, { summary: 'Locked' })).status).toBe(200);
      const ran = statements.slice(before).map((sql) => sql.trim().toLowerCase());
      const locked = ran.findIndex((sql) => /^select\b.*\bfrom "?users"?\b.*\bfor update\b/s.test(sql));
      const begin = ran.findIndex((sql) => sql.startsWith('begin'));
      const update = ran.findIndex((sql) => /^update "?users"?/.test(sql));
      const commit = ran.findIndex((sql) => sql.startsWith('commit'));
      expect(begin).toBeGreaterThanOrEqual(0);
      expect([begin < locked, locked < update, update < commit]).toEqual([true, true, true]);
    });

    it('applies each edit of a field set as a whole: concurrent edits never mix', async () => {
      const me = await register('whole');
      for (let round = 1; round <= 8; round++) {
        const edits = ['A', 'B', 'C', 'D'].map((who) => ({ summary: `${who}${round} summary`, location: `${who}${round} location` }));
        const results = await Promise.all(edits.map((edit) => patch(me.token, edit)));
        for (const [i, res] of results.entries()) {
          expect(res.status).toBe(200);
          // Each answer shows its own edit whole (the account as it was right after that edit).
          expect(res.body).toMatchObject(edits[i]!);
        }
        const now = await stored(me.userid);
        expect(edits).toContainEqual({ summary: now['summary'], location: now['location'] });
      }
    });
  });

  describe('methods', () => {
    it('answers other methods on these paths with 405 and the real ones in Allow', async () => {
      const allow = (res: ApiResponse) => (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      const putUser = await api.request('PUT', '/user', { body: { summary: 'x' } });
      expect(putUser.status).toBe(405);
      expect(allow(putUser)).toEqual(expect.arrayContaining(['GET', 'PATCH']));
      const deleteOne = await api.request('DELETE', '/users/2');
      expect(deleteOne.status).toBe(405);
      expect(allow(deleteOne)).toContain('GET');
      const patchList = await api.request('PATCH', '/users', { body: {} });
      expect(patchList.status).toBe(405);
      expect(allow(patchList)).toEqual(expect.arrayContaining(['GET', 'POST']));
    });
  });

  describe('user objects everywhere carry the standing fields', () => {
    it('login, registration, GET /user and guide authors', async () => {
      const registered = await register('std');
      expectStanding(registered.res.body);
      const login = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: DEMO_ACCOUNTS.alice.email, password: DEMO_ACCOUNTS.alice.password } });
      expect(login.status).toBe(201);
      expectStanding(login.body);
      expectStanding((await api.request('GET', '/user', { token: login.body.authToken })).body);
      const [guide] = (await api.request('GET', '/guides?limit=1')).body as { guideid: number }[];
      const full = await api.request('GET', `/guides/${guide!.guideid}`);
      expect(full.status).toBe(200);
      expectStanding(full.body.author, { badges: false });
    });
  });

  describe('OpenAPI', () => {
    it('documents the three routes, PATCH /user as an extension', async () => {
      const doc = (await api.request('GET', '/docs-json')).body;
      expect(doc.paths['/api/2.0/users'].get.responses).toHaveProperty('422');
      expect(doc.paths['/api/2.0/users/{userid}'].get.responses).toHaveProperty('404');
      const edit = doc.paths['/api/2.0/user'].patch;
      expect(edit.summary).toMatch(/extension/i);
      expect(edit.security).toEqual([{ api: [] }]);
      expect(Object.keys(edit.responses)).toEqual(expect.arrayContaining(['200', '401', '422']));
      expect(doc.components.schemas.ProfileEditRequestDto.properties).toHaveProperty('about');
    });
  });
});
