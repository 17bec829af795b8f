import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { SUMMARY_KEYS, GUIDE_KEYS, STEP_KEYS } from './support/guide-shapes.js';
import { anImage } from './support/images.js';

const LINE_KEYS = ['bullet', 'level', 'lineid', 'text_raw', 'text_rendered'];
const ITEM_KEYS = ['featured', 'isoptional', 'notes', 'quantity', 'text', 'thumbnail', 'type', 'url'];

const GUIDE_NOT_FOUND = { error: true, message: 'Guide not found' };
const GUIDE_PRIVATE = { error: true, message: 'Guide is private.' };

const idsOf = (res: ApiResponse) => (res.body as { guideid: number }[]).map((g) => g.guideid);

describe('guides over HTTP: reads', () => {
  let api: TestApi;
  const token = { alice: '', bob: '', admin: '' };
  const user = { alice: 0, bob: 0, admin: 0 };
  /** Demo guide ids, looked up by title. */
  const demo = { opening: 0, battery: 0, joycon: 0, teardown: 0, coffee: 0, draft: 0 };

  /** Ids of the guides a list may show (public, live, not meant only as a prerequisite), in id order: the truth lists are checked against. */
  const listedIds = async (extra = '') =>
    (await api.sql<{ id: number }>(`SELECT id FROM guides WHERE is_public AND deleted_at IS NULL AND NOT ('GUIDE_PREREQ_ONLY' = ANY(flags)) ${extra} ORDER BY id`)).map((r) => r.id);

  const createGuide = async (who: keyof typeof token, body: Record<string, unknown>) => {
    const res = await api.request('POST', '/guides', { token: token[who], body: { category: 'iPhone 12', type: 'repair', ...body } });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { guideid: number; revisionid: number };
  };

  const addStep = async (who: keyof typeof token, guideid: number, text: string) => {
    const res = await api.request('POST', `/guides/${guideid}/steps`, { token: token[who], body: { lines: [{ text, bullet: 'black', level: 0 }] } });
    if (res.status !== 201) throw new Error(`add step failed: ${res.status} ${res.text}`);
    return res.body as { revisionid: number };
  };

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

  describe('GET /guides', () => {
    it('lists public guides as summaries (exact §3.4 key set), sorted by guideid, the private draft left out', async () => {
      const res = await api.request('GET', '/guides');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(idsOf(res)).toEqual(await listedIds());
      expect(idsOf(res)).not.toContain(demo.draft);
      for (const summary of res.body) {
        expect(Object.keys(summary).sort()).toEqual(SUMMARY_KEYS);
        expect(summary).not.toHaveProperty('time_required');
        expect(summary).not.toHaveProperty('time_required_min');
        expect(summary.public).toBe(true);
      }
    });

    it('fills a summary from the guide', async () => {
      const res = await api.request('GET', '/guides');
      const battery = res.body.find((g: { guideid: number }) => g.guideid === demo.battery);
      expect(battery).toMatchObject({
        dataType: 'guide',
        guideid: demo.battery,
        locale: 'en',
        revisionid: expect.any(Number),
        modified_date: expect.any(Number),
        prereq_modified_date: expect.any(Number),
        url: expect.stringMatching(new RegExp(`/Guide/iPhone\\+12\\+Battery\\+Replacement/${demo.battery}$`)),
        type: 'replacement',
        category: 'iPhone 12',
        subject: 'Battery',
        title: 'iPhone 12 Battery Replacement',
        summary: 'Replace a worn-out battery to restore battery life.',
        difficulty: 'Moderate',
        time_required_max: 5400,
        public: true,
        userid: user.alice,
        username: 'Alice Fixwell',
        flags: [],
        image: anImage(),
      });
      expect(battery.prereq_modified_date).toBeGreaterThan(0);
      const [row] = await api.sql<{ revisionid: number }>('SELECT revisionid FROM guides WHERE id = $1', [demo.battery]);
      expect(battery.revisionid).toBe(row!.revisionid);
      const teardown = res.body.find((g: { guideid: number }) => g.guideid === demo.teardown);
      expect(teardown).toMatchObject({ type: 'teardown', difficulty: null, userid: user.bob, username: 'Bob Solder', prereq_modified_date: 0 });
      const [opening] = (await api.request('GET', `/guides?guideids=${demo.opening}`)).body;
      expect(opening.flags).toEqual(['GUIDE_PREREQ_ONLY']);
    });

    it('order=DESC reverses the order (any case); a bad order is a 400', async () => {
      const asc = idsOf(await api.request('GET', '/guides?order=ASC'));
      const desc = await api.request('GET', '/guides?order=DESC');
      expect(desc.status).toBe(200);
      expect(idsOf(desc)).toEqual([...asc].reverse());
      expect(idsOf(await api.request('GET', '/guides?order=desc'))).toEqual([...asc].reverse());
      const bad = await api.request('GET', '/guides?order=sideways');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: true, message: expect.any(String) });
    });

    it('pages with limit and offset', async () => {
      const all = await listedIds();
      expect(idsOf(await api.request('GET', '/guides?limit=2'))).toEqual(all.slice(0, 2));
      expect(idsOf(await api.request('GET', '/guides?limit=2&offset=1'))).toEqual(all.slice(1, 3));
      expect(idsOf(await api.request('GET', '/guides?limit=2&offset=2&order=DESC'))).toEqual([...all].reverse().slice(2, 4));
      expect(idsOf(await api.request('GET', `/guides?offset=${all.length}`))).toEqual([]);
    });

    it('refuses a limit or offset that is not a non-negative integer (400); clamps a big limit', async () => {
      for (const query of ['limit=abc', 'limit=-1', 'limit=1.5', 'offset=abc', 'offset=-3']) {
        const res = await api.request('GET', `/guides?${query}`);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      }
      const big = await api.request('GET', '/guides?limit=500');
      expect(big.status).toBe(200);
      expect(big.body.length).toBeLessThanOrEqual(200);
      expect(idsOf(big)).toEqual(await listedIds());
    });

    it('filter keeps the given types only; unknown types match nothing', async () => {
      const teardowns = await api.request('GET', '/guides?filter=teardown');
      expect(teardowns.status).toBe(200);
      expect(idsOf(teardowns)).toEqual(await listedIds(`AND type = 'teardown'`));
      expect(idsOf(teardowns)).toContain(demo.teardown);
      expect(teardowns.body.every((g: { type: string }) => g.type === 'teardown')).toBe(true);
      const two = await api.request('GET', '/guides?filter=teardown,maintenance');
      expect(idsOf(two)).toEqual(await listedIds(`AND type IN ('teardown', 'maintenance')`));
      expect(idsOf(two)).toEqual(expect.arrayContaining([demo.teardown, demo.coffee]));
      const bogus = await api.request('GET', '/guides?filter=bogus');
      expect(bogus.status).toBe(200);
      expect(bogus.body).toEqual([]);
    });

    it('guideids: only those, in the order asked; unknown, malformed and private ids dropped; other parameters ignored', async () => {
      const res = await api.request('GET', `/guides?guideids=${demo.battery},${demo.opening},999,${demo.draft}`);
      expect(res.status).toBe(200);
      expect(idsOf(res)).toEqual([demo.battery, demo.opening]);
      expect(Object.keys(res.body[0]).sort()).toEqual(SUMMARY_KEYS);
      const ignored = await api.request('GET', `/guides?guideids=${demo.coffee},abc,${demo.joycon}&filter=teardown&limit=1&order=DESC`);
      expect(idsOf(ignored)).toEqual([demo.coffee, demo.joycon]);
      // A private guide is dropped even for its author.
      const mine = await api.request('GET', `/guides?guideids=${demo.draft}`, { token: token.bob });
      expect(mine.body).toEqual([]);
    });

    it('guideids: only the first 50 ids are used', async () => {
      const fifty = Array.from({ length: 50 }, () => 999999);
      const res = await api.request('GET', `/guides?guideids=${[...fifty, demo.battery].join(',')}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      const within = await api.request('GET', `/guides?guideids=${[...fifty.slice(1), demo.battery].join(',')}`);
      expect(idsOf(within)).toEqual([demo.battery]);
    });

    it('modifiedSince: only guides modified at or after that time; in the future, none; malformed is a 400', async () => {
      const future = Math.floor(Date.now() / 1000) + 3600;
      const none = await api.request('GET', `/guides?modifiedSince=${future}`);
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
      expect(idsOf(await api.request('GET', '/guides?modifiedSince=0'))).toEqual(await listedIds());
      const recent = await createGuide('alice', { title: 'Recently modified guide', public: true });
      await api.sql(`UPDATE guides SET modified_at = now() + interval '2 hours' WHERE id = $1`, [recent.guideid]);
      expect(idsOf(await api.request('GET', `/guides?modifiedSince=${future}`))).toEqual([recent.guideid]);
      expect((await api.request('GET', '/guides?modifiedSince=yesterday')).status).toBe(400);
    });

    it("leaves out a guide meant only as a prerequisite, as its author's public list does; both lists agree, and the guide stays readable by id", async () => {
      const all = idsOf(await api.request('GET', '/guides?limit=200'));
      expect(all).not.toContain(demo.opening);
      const ofAlice = idsOf(await api.request('GET', `/users/${user.alice}/guides?limit=200`));
      expect(ofAlice).not.toContain(demo.opening);
      // Every public guide of alice's that GET /guides lists is in her public list, and no other.
      const aliceAuthored = (await api.sql<{ id: number }>('SELECT id FROM guides WHERE author_id = $1', [user.alice])).map((r) => r.id);
      expect(all.filter((id) => aliceAuthored.includes(id))).toEqual(ofAlice);
      // Her own list, a request by id and the guide itself still show it.
      expect(idsOf(await api.request('GET', '/user/guides?limit=200', { token: token.alice, appId: DEMO_APP_ID }))).toContain(demo.opening);
      expect(idsOf(await api.request('GET', `/guides?guideids=${demo.opening}`))).toEqual([demo.opening]);
      expect((await api.request('GET', `/guides/${demo.opening}`)).status).toBe(200);
    });

    it('leaves out deleted guides', async () => {
      const doomed = await createGuide('alice', { title: 'Soon deleted', public: true });
      expect(idsOf(await api.request('GET', '/guides?limit=200'))).toContain(doomed.guideid);
      const del = await api.request('DELETE', `/guides/${doomed.guideid}?revisionid=${doomed.revisionid}`, { token: token.alice });
      expect(del.status).toBe(204);
      expect(idsOf(await api.request('GET', '/guides?limit=200'))).not.toContain(doomed.guideid);
      expect(idsOf(await api.request('GET', `/guides?guideids=${doomed.guideid}`))).toEqual([]);
    });
  });

  describe('GET /guides/featured', () => {
    it('lists the public guides flagged GUIDE_STARRED, as summaries', async () => {
      const res = await api.request('GET', '/guides/featured');
      expect(res.status).toBe(200);
      expect(idsOf(res)).toEqual(await listedIds(`AND 'GUIDE_STARRED' = ANY(flags)`));
      expect(idsOf(res)).toContain(demo.coffee);
      for (const summary of res.body) {
        expect(Object.keys(summary).sort()).toEqual(SUMMARY_KEYS);
        expect(summary.flags).toContain('GUIDE_STARRED');
      }
    });

    it('leaves out a starred guide that is private', async () => {
      const hidden = await createGuide('alice', { title: 'Starred but private' });
      const star = await api.request('PATCH', `/guides/${hidden.guideid}?revisionid=${hidden.revisionid}`, { token: token.admin, body: { flags: ['GUIDE_STARRED'] } });
      expect(star.status).toBe(200);
      expect(idsOf(await api.request('GET', '/guides/featured'))).not.toContain(hidden.guideid);
    });
  });

  describe('GET /guides/{id}', () => {
    it('answers the full guide with the exact §3.5 key set', async () => {
      const res = await api.request('GET', `/guides/${demo.battery}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(Object.keys(res.body).sort()).toEqual(GUIDE_KEYS);
      expect(res.body).not.toHaveProperty('dataType');
      expect(res.body).not.toHaveProperty('userid');
      expect(res.body).not.toHaveProperty('username');
    });

    it('fills the guide from what was written', async () => {
      const res = await api.request('GET', `/guides/${demo.battery}`);
      const [row] = await api.sql<{ revisionid: number }>('SELECT revisionid FROM guides WHERE id = $1', [demo.battery]);
      expect(res.body).toMatchObject({
        guideid: demo.battery,
        title: 'iPhone 12 Battery Replacement',
        category: 'iPhone 12',
        subject: 'Battery',
        type: 'replacement',
        summary: 'Replace a worn-out battery to restore battery life.',
        difficulty: 'Moderate',
        time_required: expect.any(String),
        time_required_min: 3600,
        time_required_max: 5400,
        introduction_raw: expect.stringContaining('Discharge the battery below 25 %'),
        introduction_rendered: expect.any(String),
        conclusion_raw: 'Follow these instructions in reverse order to reassemble your device.',
        conclusion_rendered: expect.stringContaining('Follow these instructions in reverse order'),
        image: anImage(),
        documents: [],
        flags: [],
        author: { userid: user.alice, username: 'Alice Fixwell', unique_username: 'alice' },
        revisionid: row!.revisionid,
        created_date: expect.any(Number),
        published_date: expect.any(Number),
        modified_date: expect.any(Number),
        public: true,
        locale: 'en',
        langid: 'en',
        available_langids: ['en'],
        url: expect.stringMatching(new RegExp(`/Guide/iPhone\\+12\\+Battery\\+Replacement/${demo.battery}$`)),
        // The demo thread: a question with two replies (see the community's demo).
        comments: [expect.objectContaining({ context: 'guide', contextid: demo.battery, parentid: null, replies: [expect.objectContaining({ parentid: expect.any(Number) }), expect.objectContaining({ parentid: expect.any(Number) })] })],
      });
      expect(res.body.published_date).toBeGreaterThan(0);
      expect(res.body.parts).toHaveLength(2);
      for (const item of [...res.body.parts, ...res.body.tools]) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
      expect(res.body.parts[0]).toEqual({
        text: 'iPhone 12 Battery',
        type: 'Part Only',
        quantity: 1,
        notes: null,
        url: 'https://example.com/parts/iphone-12-battery',
        thumbnail: null,
        isoptional: false,
        featured: false,
      });
      expect(res.body.parts[1]).toMatchObject({ text: 'Battery adhesive strips', quantity: 2, notes: 'Use new strips.', url: expect.stringMatching(/^https?:\/\/[^/]+\/Item\/Battery_adhesive_strips$/), thumbnail: null });
      expect(res.body.tools.map((t: { text: string }) => t.text)).toEqual(['Spudger', 'Tweezers']);
    });

    it('shows the prerequisites as summaries without `summary`, and inlines their steps first', async () => {
      const res = await api.request('GET', `/guides/${demo.battery}`);
      expect(res.body.prerequisites).toHaveLength(1);
      const prereq = res.body.prerequisites[0];
      expect(Object.keys(prereq).sort()).toEqual(SUMMARY_KEYS.filter((k) => k !== 'summary'));
      expect(prereq).toMatchObject({ guideid: demo.opening, title: 'iPhone 12 Opening Procedure', flags: ['GUIDE_PREREQ_ONLY'] });
      expect(res.body.prereq_modified_date).toBe(prereq.modified_date);

      const steps = res.body.steps as { guideid: number; orderby: number; stepid: number }[];
      expect(steps.map((s) => [s.guideid, s.orderby])).toEqual([
        [demo.opening, 1],
        [demo.opening, 2],
        [demo.opening, 3],
        [demo.battery, 1],
        [demo.battery, 2],
        [demo.battery, 3],
      ]);
      const opening = await api.request('GET', `/guides/${demo.opening}`);
      expect(steps.slice(0, 3)).toEqual(opening.body.steps);
    });

    it('excludePrerequisiteSteps (a presence flag) leaves the prerequisite steps out', async () => {
      for (const query of ['excludePrerequisiteSteps', 'excludePrerequisiteSteps=1', 'excludePrerequisiteSteps=0']) {
        const res = await api.request('GET', `/guides/${demo.battery}?${query}`);
        expect(res.status).toBe(200);
        expect(res.body.steps.map((s: { guideid: number; orderby: number }) => [s.guideid, s.orderby])).toEqual([
          [demo.battery, 1],
          [demo.battery, 2],
          [demo.battery, 3],
        ]);
        expect(res.body.prerequisites.map((p: { guideid: number }) => p.guideid)).toEqual([demo.opening]);
      }
    });

    it('shows every step with the §3.8 keys, its lines and its media (always present)', async () => {
      const res = await api.request('GET', `/guides/${demo.battery}?excludePrerequisiteSteps`);
      const step = res.body.steps[0];
      expect(Object.keys(step).sort()).toEqual(STEP_KEYS);
      expect(step).toMatchObject({ guideid: demo.battery, orderby: 1, title: 'Disconnect the battery', comments: [expect.objectContaining({ context: 'step', contextid: step.stepid })], media: { type: 'image', data: [anImage()] } });
      expect(step.lines).toHaveLength(3);
      for (const line of step.lines) expect(Object.keys(line).sort()).toEqual(LINE_KEYS);
      expect(step.lines[1]).toMatchObject({ text_raw: 'Use the point of a spudger to pry the battery connector up.', bullet: 'blue', level: 0 });
      expect(step.lines[2]).toMatchObject({ text_raw: 'Never use a metal tool on the battery.', bullet: 'icon_caution', level: 1 });
      const rows = await api.sql<{ id: number; revisionid: number }>('SELECT id, revisionid FROM guide_steps WHERE guide_id = $1 ORDER BY orderby', [demo.battery]);
      expect(res.body.steps.map((s: { stepid: number; revisionid: number }) => [s.stepid, s.revisionid])).toEqual(rows.map((r) => [r.id, r.revisionid]));
      // Every guide: the image key and every step's media.
      for (const id of Object.values(demo).filter((id) => id !== demo.draft)) {
        const guide = await api.request('GET', `/guides/${id}`);
        expect(guide.body).toHaveProperty('image');
        expect(guide.body.steps.length).toBeGreaterThan(0);
        for (const s of guide.body.steps) expect(s.media).toEqual(expect.objectContaining({ type: expect.any(String), data: expect.anything() }));
      }
    });

    it('shows a guide without difficulty or estimate as null and "No estimate"', async () => {
      const res = await api.request('GET', `/guides/${demo.teardown}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ difficulty: null, time_required: 'No estimate', time_required_min: 0, time_required_max: 0, prerequisites: [], prereq_modified_date: 0 });
    });

    it('answers 404 {error, message: Guide not found} for an unknown or malformed id', async () => {
      for (const id of ['999999', 'abc', '0', '-1', '1.5']) {
        const res = await api.request('GET', `/guides/${id}`);
        expect({ id, status: res.status }).toEqual({ id, status: 404 });
        expect(res.body).toEqual(GUIDE_NOT_FOUND);
      }
    });

    it('refuses a private guide with 403 to anyone but its author and Admins', async () => {
      const anonymous = await api.request('GET', `/guides/${demo.draft}`);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual(GUIDE_PRIVATE);
      const alice = await api.request('GET', `/guides/${demo.draft}`, { token: token.alice });
      expect(alice.status).toBe(403);
      expect(alice.body).toEqual(GUIDE_PRIVATE);
      const bob = await api.request('GET', `/guides/${demo.draft}`, { token: token.bob });
      expect(bob.status).toBe(200);
      expect(bob.body).toMatchObject({ guideid: demo.draft, public: false, can_edit: true, published_date: 0 });
      const admin = await api.request('GET', `/guides/${demo.draft}`, { token: token.admin });
      expect(admin.status).toBe(200);
      expect(admin.body.can_edit).toBe(true);
    });

    it('ignores an invalid token on a public guide (viewer is anonymous)', async () => {
      const res = await api.request('GET', `/guides/${demo.battery}`, { token: 'not-a-real-token-at-all-xxxxxxxx' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ can_edit: false, favorited: false, completed: false });
    });

    it('viewer fields: can_edit, favorited, completed follow the viewer', async () => {
      const view = async (id: number, who?: keyof typeof token) => {
        const res = await api.request('GET', `/guides/${id}`, { token: who ? token[who] : undefined });
        expect(res.status).toBe(200);
        return { can_edit: res.body.can_edit, favorited: res.body.favorited, completed: res.body.completed };
      };
      expect(await view(demo.battery)).toEqual({ can_edit: false, favorited: false, completed: false });
      expect(await view(demo.battery, 'alice')).toEqual({ can_edit: true, favorited: false, completed: false });
      expect(await view(demo.battery, 'bob')).toEqual({ can_edit: false, favorited: true, completed: false });
      expect(await view(demo.battery, 'admin')).toEqual({ can_edit: true, favorited: false, completed: false });
      expect(await view(demo.opening, 'bob')).toEqual({ can_edit: false, favorited: false, completed: true });
      expect(await view(demo.joycon, 'alice')).toEqual({ can_edit: false, favorited: false, completed: true });
      expect(await view(demo.joycon, 'bob')).toEqual({ can_edit: true, favorited: false, completed: false });
    });

    it('leaves out a private prerequisite (and its steps) for viewers who may not see it', async () => {
      const hidden = await createGuide('alice', { title: 'Private prerequisite' });
      await addStep('alice', hidden.guideid, 'A step of the private prerequisite.');
      const main = await createGuide('alice', { title: 'Uses a private prerequisite', public: true, prerequisites: [hidden.guideid] });
      await addStep('alice', main.guideid, 'A step of the main guide.');

      const anonymous = await api.request('GET', `/guides/${main.guideid}`);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.prerequisites).toEqual([]);
      expect(anonymous.body.steps.map((s: { guideid: number }) => s.guideid)).toEqual([main.guideid]);

      const author = await api.request('GET', `/guides/${main.guideid}`, { token: token.alice });
      expect(author.body.prerequisites.map((p: { guideid: number }) => p.guideid)).toEqual([hidden.guideid]);
      expect(author.body.steps.map((s: { guideid: number }) => s.guideid)).toEqual([hidden.guideid, main.guideid]);
    });

    it('inlines several prerequisites in the order they are listed', async () => {
      const first = await createGuide('bob', { title: 'First prerequisite', public: true });
      await addStep('bob', first.guideid, 'First prerequisite, step 1.');
      const second = await createGuide('bob', { title: 'Second prerequisite', public: true });
      await addStep('bob', second.guideid, 'Second prerequisite, step 1.');
      await addStep('bob', second.guideid, 'Second prerequisite, step 2.');
      const main = await createGuide('bob', { title: 'Two prerequisites', public: true, prerequisites: [second.guideid, first.guideid] });
      await addStep('bob', main.guideid, 'Main, step 1.');
      const res = await api.request('GET', `/guides/${main.guideid}`);
      expect(res.body.prerequisites.map((p: { guideid: number }) => p.guideid)).toEqual([second.guideid, first.guideid]);
      expect(res.body.steps.map((s: { guideid: number; orderby: number }) => [s.guideid, s.orderby])).toEqual([
        [second.guideid, 1],
        [second.guideid, 2],
        [first.guideid, 1],
        [main.guideid, 1],
      ]);
    });

    it('refuses a malformed revisionid with 400', async () => {
      const res = await api.request('GET', `/guides/${demo.battery}?revisionid=abc`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
    });
  });
});
