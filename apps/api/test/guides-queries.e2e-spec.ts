import { isEventDelivery } from './support/event-delivery.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { GuideVersions, PublicGuideBodies } from '@rc/guides-http';

const idsOf = (res: ApiResponse) => (res.body as { guideid?: number; guide?: { guideid: number } }[]).map((g) => g.guideid ?? g.guide!.guideid);

/**
 * Big lists and the cost of reads: with a few hundred guides, pages clamp at 200, and reading a
 * guide or a page runs a fixed number of SQL statements whatever its size (no N+1). Statements
 * are counted with the server's query hook (`onQuery`).
 */
describe('guides over HTTP: big lists and query counts', () => {
  let api: TestApi;
  const statements: string[] = [];
  const token = { alice: '', bob: '' };
  const user = { alice: 0, bob: 0 };
  let reader = { userid: 0, token: '' };
  let copies: number[] = [];

  /** Runs a request and counts the SQL statements it caused (transaction control left out). */
  async function queriesOf(method: string, path: string, options: { token?: string; appId?: string; body?: unknown } = {}, expected = 200): Promise<number> {
    await api.settle();
    const before = statements.length;
    const res = await api.request(method, path, options);
    expect({ path, status: res.status }).toEqual({ path, status: expected });
    return statements.slice(before).filter((sql) => !/^(begin|commit|rollback|savepoint|release)/i.test(sql.trim()) && !isEventDelivery(sql)).length;
  }

  const newGuide = async (body: Record<string, unknown> = {}) => {
    const res = await api.request('POST', '/guides', { token: token.alice, body: { category: 'iPhone 12', type: 'repair', public: true, ...body } });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body.guideid as number;
  };

  /** A public guide of alice with `count` steps of two lines each. */
  const guideWithSteps = async (count: number, prerequisites: number[] = []) => {
    const id = await newGuide({ title: `Guide of ${count} steps`, prerequisites });
    for (let i = 0; i < count; i++) {
      const res = await api.request('POST', `/guides/${id}/steps`, {
        token: token.alice,
        body: { lines: [{ text: `Step ${i}`, bullet: 'black', level: 0 }, { text: 'More', bullet: 'red', level: 1 }], media: { type: 'image', data: [i + 1] } },
      });
      if (res.status !== 201) throw new Error(`add step failed: ${res.status} ${res.text}`);
    }
    return id;
  };

  const revisionOf = async (id: number) => (await api.sql<{ revisionid: number }>('SELECT revisionid FROM guides WHERE id = $1', [id]))[0]!.revisionid;

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    for (const who of ['alice', 'bob'] as const) {
      token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
      user[who] = (await api.request('GET', '/user', { token: token[who] })).body.userid;
    }
    // 240 public, starred copies of alice's coffee guide, straight into the table.
    copies = (
      await api.sql<{ id: number }>(
        `INSERT INTO guides (id, revisionid, author_id, contributor_ids, title, category, subject, type, difficulty, summary, introduction, conclusion,
           time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags, is_public, locale, created_at, modified_at, published_at, deleted_at)
         SELECT nextval('guides_id_seq'), nextval('guide_revision_seq'), author_id, contributor_ids, title || ' #' || n, category, subject, type, difficulty,
           summary, introduction, conclusion, time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags, is_public, locale,
           created_at, modified_at, published_at, deleted_at
         FROM guides, generate_series(1, 240) AS n WHERE title = 'Coffee Maker Descaling' ORDER BY n RETURNING id`,
      )
    ).map((r) => r.id);
    // A reader who favourited and completed 120 of them.
    const name = `reader${Date.now().toString(36)}`;
    const registered = await api.request('POST', '/users', {
      appId: DEMO_APP_ID,
      body: { email: `${name}@example.com`, username: `Reader ${name}`, unique_username: name, password: `${name}-long-password` },
    });
    reader = { userid: registered.body.userid, token: registered.body.authToken };
    await api.sql(
      `INSERT INTO guide_marks (kind, user_id, guide_id, created_at)
       SELECT k, $1, g, now() - (g || ' seconds')::interval FROM unnest($2::int[]) AS g, unnest(ARRAY['favorite', 'completion']) AS k`,
      [reader.userid, copies.slice(0, 120)],
    );
  });
  afterAll(() => api.close());

  describe('big lists', () => {
    it('clamps limit=500 to 200 and pages on with offset', async () => {
      const listed = (await api.sql<{ id: number }>("SELECT id FROM guides WHERE is_public AND deleted_at IS NULL AND NOT ('GUIDE_PREREQ_ONLY' = ANY(flags)) ORDER BY id")).map((r) => r.id);
      expect(listed.length).toBeGreaterThan(200);
      const first = await api.request('GET', '/guides?limit=500');
      expect(first.status).toBe(200);
      expect(idsOf(first)).toEqual(listed.slice(0, 200));
      expect(idsOf(await api.request('GET', '/guides?limit=200&offset=200'))).toEqual(listed.slice(200, 400));
      expect(idsOf(await api.request('GET', '/guides'))).toEqual(listed.slice(0, 20));
      expect((await api.request('GET', '/guides/featured?limit=1000')).body).toHaveLength(200);
      expect((await api.request('GET', '/user/guides?limit=100000', { token: token.alice, appId: DEMO_APP_ID })).body).toHaveLength(200);
      expect((await api.request('GET', '/user/favorites/guides?limit=10000', { token: reader.token })).body).toHaveLength(120);
    });

    it('lists favourites newest first across pages', async () => {
      const all = idsOf(await api.request('GET', '/user/favorites/guides?limit=200', { token: reader.token }));
      // Marked `now - id seconds`: the lowest id is the newest.
      expect(all).toEqual([...copies.slice(0, 120)].sort((a, b) => a - b));
      const pages = [];
      for (let offset = 0; offset < 120; offset += 50) pages.push(...idsOf(await api.request('GET', `/user/favorites/guides?limit=50&offset=${offset}`, { token: reader.token })));
      expect(pages).toEqual(all);
    });
  });

  describe('query counts (no N+1)', () => {
    it('GET /guides/{id}: a guide of 30 steps costs what a guide of 1 step costs (anonymous and signed in)', async () => {
      const small = await guideWithSteps(1);
      const large = await guideWithSteps(30);
      // Anonymous bodies keep the user parts they show: each read here starts without them.
      const users = api.running.app.get(PublicGuideBodies).users;
      const anonymousRead = (path: string) => (users.clear(), queriesOf('GET', path));
      const anonymous = await anonymousRead(`/guides/${small}`);
      expect(anonymous).toBeGreaterThan(0);
      expect(await anonymousRead(`/guides/${large}`)).toBe(anonymous);
      expect(await queriesOf('GET', `/guides/${large}`, { token: token.bob })).toBe(await queriesOf('GET', `/guides/${small}`, { token: token.bob }));
      expect(await anonymousRead(`/guides/${large}?excludePrerequisiteSteps`)).toBe(await anonymousRead(`/guides/${small}?excludePrerequisiteSteps`));
    });

    it('GET /guides/{id}: five prerequisites of many steps cost what one prerequisite of one step costs', async () => {
      const one = await guideWithSteps(1);
      const many = await Promise.all([0, 1, 2, 3, 4].map(() => guideWithSteps(4)));
      const small = await guideWithSteps(1, [one]);
      const large = await guideWithSteps(30, many);
      expect((await api.request('GET', `/guides/${large}?pretty`)).body.steps).toHaveLength(50);
      // Built each time (`?pretty` bypasses the anonymous body cache): the cost of building.
      expect(await queriesOf('GET', `/guides/${large}?pretty`)).toBe(await queriesOf('GET', `/guides/${small}?pretty`));
      // Cached and asked with a query string (so through the regular route): no statement at all once
      // the version is remembered (the versions' own pool is not the ORM's: its lookups are counted apart).
      const versions = api.running.app.get(GuideVersions);
      await queriesOf('GET', `/guides/${large}?unused=1`);
      await queriesOf('GET', `/guides/${small}?unused=1`);
      const lookups = versions.lookups;
      expect(await queriesOf('GET', `/guides/${large}?unused=1`)).toBe(0);
      expect(await queriesOf('GET', `/guides/${small}?unused=1`)).toBe(0);
      expect(versions.lookups).toBe(lookups);
      expect(await queriesOf('GET', `/guides/${large}`, { token: token.alice })).toBe(await queriesOf('GET', `/guides/${small}`, { token: token.alice }));
    });

    it('GET /guides?limit=50 costs what limit=5 costs (also with filter, order and guideids)', async () => {
      const five = await queriesOf('GET', '/guides?limit=5');
      expect(five).toBeGreaterThan(0);
      expect(await queriesOf('GET', '/guides?limit=50')).toBe(five);
      expect(await queriesOf('GET', '/guides?limit=200')).toBe(five);
      expect(await queriesOf('GET', '/guides?limit=50&filter=maintenance&order=DESC')).toBe(await queriesOf('GET', '/guides?limit=5&filter=maintenance&order=DESC'));
      expect(await queriesOf('GET', `/guides?guideids=${copies.slice(0, 50).join(',')}`)).toBe(await queriesOf('GET', `/guides?guideids=${copies.slice(0, 5).join(',')}`));
    });

    it('GET /guides/featured and the user lists cost the same for 50 items as for 5', async () => {
      const pairs: Array<[string, { token?: string; appId?: string }]> = [
        ['/guides/featured', {}],
        ['/user/guides', { token: token.alice, appId: DEMO_APP_ID }],
        [`/users/${user.alice}/guides`, {}],
        ['/user/favorites/guides', { token: reader.token }],
        [`/users/${reader.userid}/favorites/guides`, {}],
        ['/user/completions', { token: reader.token }],
        [`/users/${reader.userid}/completions`, {}],
      ];
      for (const [path, options] of pairs) {
        const five = await queriesOf('GET', `${path}?limit=5`, options);
        const fifty = await queriesOf('GET', `${path}?limit=50`, options);
        expect({ path, fifty }).toEqual({ path, fifty: five });
      }
    });

    it('PATCH /guides/{id} and PUT /guides/{id}/steporder cost the same for 30 steps as for 2', async () => {
      const small = await guideWithSteps(2);
      const large = await guideWithSteps(30);
      const patchCost = async (id: number, title: string) => queriesOf('PATCH', `/guides/${id}?revisionid=${await revisionOf(id)}`, { token: token.alice, body: { title } });
      expect(await patchCost(large, 'Large, renamed')).toBe(await patchCost(small, 'Small, renamed'));
      const reverse = async (id: number) => {
        const steps = (await api.request('GET', `/guides/${id}`, { token: token.alice })).body.steps as { stepid: number }[];
        return queriesOf('PUT', `/guides/${id}/steporder?revisionid=${await revisionOf(id)}`, { token: token.alice, body: { stepids: steps.map((s) => s.stepid).reverse() } });
      };
      expect(await reverse(large)).toBe(await reverse(small));
    });
  });
});
