import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { GUIDE_KEYS } from './support/guide-shapes.js';

const GUIDE_NOT_FOUND = { error: true, message: 'Guide not found' };
const GUIDE_PRIVATE = { error: true, message: 'Guide is private.' };

type Who = 'alice' | 'bob' | 'admin';

/** The `field`s listed by a 422 body. */
const fieldsOf = (res: ApiResponse) => [...new Set(((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field))];
const idsOf = (res: ApiResponse) => (res.body as { guideid: number }[]).map((g) => g.guideid);

describe('guides over HTTP: writes', () => {
  let api: TestApi;
  const token: Record<Who, string> = { alice: '', bob: '', admin: '' };
  const user: Record<Who, number> = { alice: 0, bob: 0, admin: 0 };
  let serial = 0;

  const create = (who: Who | null, body: unknown) => api.request('POST', '/guides', { token: who ? token[who] : undefined, body });

  /** Creates a guide (201 expected) with defaults for the required fields. */
  const newGuide = async (who: Who, body: Record<string, unknown> = {}) => {
    serial += 1;
    const res = await create(who, { category: 'iPhone 12', type: 'repair', title: `Test guide ${serial}`, ...body });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { guideid: number; revisionid: number; title: string; [key: string]: unknown };
  };

  const addStep = async (who: Who, guideid: number, text = 'A step.') => {
    const res = await api.request('POST', `/guides/${guideid}/steps`, { token: token[who], body: { lines: [{ text, bullet: 'black', level: 0 }] } });
    if (res.status !== 201) throw new Error(`add step failed: ${res.status} ${res.text}`);
    return res.body as { revisionid: number };
  };

  const get = (id: number, who: Who | null = null, query = '') => api.request('GET', `/guides/${id}${query}`, { token: who ? token[who] : undefined });
  const patch = (id: number, revisionid: number | string | null, body: unknown, who: Who | null = 'alice') =>
    api.request('PATCH', `/guides/${id}${revisionid === null ? '' : `?revisionid=${revisionid}`}`, { token: who ? token[who] : undefined, body });

  /** The stored row of a guide (the truth the responses are checked against). */
  const stored = async (id: number) =>
    (await api.sql<{ revisionid: number; title: string; summary: string; is_public: boolean; deleted_at: Date | null; flags: string[]; difficulty: string | null }>(
      'SELECT revisionid, title, summary, is_public, deleted_at, flags, difficulty FROM guides WHERE id = $1',
      [id],
    ))[0]!;
  const revisionRows = async (id: number) => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM guide_revisions WHERE guide_id = $1', [id]))[0]!.n;
  const guideCount = async () => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM guides'))[0]!.n;
  const eventsOf = async (id: number) =>
    (await api.sql<{ type: string; payload: Record<string, unknown> }>(`SELECT type, payload FROM guide_events_outbox WHERE (payload->>'guideId')::int = $1 ORDER BY id`, [id]));

  beforeAll(async () => {
    api = await startTestApi();
    for (const who of ['alice', 'bob', 'admin'] as const) {
      token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
      user[who] = (await api.request('GET', '/user', { token: token[who] })).body.userid;
    }
  });
  afterAll(() => api.close());

  describe('POST /guides', () => {
    it('lets any signed-in user create a guide: 201, the full guide, private by default, default title', async () => {
      const before = await guideCount();
      const res = await create('bob', { category: 'Nintendo Switch', type: 'repair', subject: 'Fan' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(GUIDE_KEYS);
      expect(res.body).toMatchObject({
        guideid: expect.any(Number),
        title: 'Nintendo Switch Fan Repair',
        category: 'Nintendo Switch',
        subject: 'Fan',
        type: 'repair',
        public: false,
        published_date: 0,
        steps: [],
        prerequisites: [],
        image: null,
        author: { userid: user.bob, username: 'Bob Solder' },
        can_edit: true,
        favorited: false,
        completed: false,
        locale: 'en',
      });
      expect(res.body.revisionid).toBeGreaterThan(0);
      expect(res.body.created_date).toBeGreaterThan(0);
      expect(await guideCount()).toBe(before + 1);
      const row = await stored(res.body.guideid);
      expect(row).toMatchObject({ revisionid: res.body.revisionid, is_public: false, deleted_at: null });
      // The response is what GET answers the author.
      expect((await get(res.body.guideid, 'bob')).body).toEqual(res.body);
    });

    it('keeps a new private guide from everyone but its author and Admins, and out of lists', async () => {
      const guide = await newGuide('bob');
      expect((await get(guide.guideid)).status).toBe(403);
      const alice = await get(guide.guideid, 'alice');
      expect(alice.status).toBe(403);
      expect(alice.body).toEqual(GUIDE_PRIVATE);
      expect((await get(guide.guideid, 'bob')).status).toBe(200);
      expect((await get(guide.guideid, 'admin')).status).toBe(200);
      expect(idsOf(await api.request('GET', '/guides?limit=200'))).not.toContain(guide.guideid);
      expect(idsOf(await api.request('GET', `/user/guides?limit=200`, { token: token.bob, appId: DEMO_APP_ID }))).toContain(guide.guideid);
    });

    it('publishes at once with public: true (listed, published_date set, GuidePublished event)', async () => {
      const guide = await newGuide('alice', { public: true });
      expect(guide['public']).toBe(true);
      expect(guide['published_date']).toBeGreaterThan(0);
      expect((await get(guide.guideid)).status).toBe(200);
      expect(idsOf(await api.request('GET', '/guides?limit=200'))).toContain(guide.guideid);
      const events = await eventsOf(guide.guideid);
      expect(events.map((e) => e.type)).toEqual(['GuidePublished']);
      expect(events[0]!.payload).toMatchObject({ type: 'GuidePublished', guideId: guide.guideid, authorId: user.alice, guideType: 'repair' });
      // A private guide publishes nothing.
      expect(await eventsOf((await newGuide('alice')).guideid)).toEqual([]);
    });

    it('reads the write names back under the read names', async () => {
      const prerequisite = await newGuide('alice', { public: true, title: 'A prerequisite' });
      const res = await create('alice', {
        category: 'Coffee Maker',
        type: 'maintenance',
        subject: 'Filter',
        title: '  Coffee Maker Filter Cleaning  ',
        summary: 'Keep the filter clean.',
        introduction: 'Before you start.',
        conclusion: 'Done.',
        difficulty: 'Easy',
        time_required: 'whatever: ignored',
        time_required_min: 600,
        time_required_max: 1200,
        flags: ['GUIDE_IN_PROGRESS'],
        prerequisites: [prerequisite.guideid],
        parts: [{ name: 'Filter', type: 'Paper', quantity: 2, notes: 'Size 4', url: 'https://example.com/filter', isoptional: true, featured: true }],
        tools: [{ name: 'Brush' }],
        langid: 'en',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        title: 'Coffee Maker Filter Cleaning',
        summary: 'Keep the filter clean.',
        introduction_raw: 'Before you start.',
        introduction_rendered: expect.stringContaining('Before you start.'),
        conclusion_raw: 'Done.',
        difficulty: 'Easy',
        time_required_min: 600,
        time_required_max: 1200,
        flags: [{ flagid: 'GUIDE_IN_PROGRESS', title: 'In Progress', text: expect.any(String) }],
        parts: [{ text: 'Filter', type: 'Paper', quantity: 2, notes: 'Size 4', url: 'https://example.com/filter', thumbnail: null, isoptional: true, featured: true }],
        tools: [{ text: 'Brush', type: '', quantity: 1, notes: null, url: expect.stringMatching(/\/Item\/Brush$/), thumbnail: null, isoptional: false, featured: false }],
      });
      expect(res.body.time_required).not.toBe('whatever: ignored');
      expect(res.body.prerequisites.map((p: { guideid: number }) => p.guideid)).toEqual([prerequisite.guideid]);
    });

    it('needs a token (401)', async () => {
      const before = await guideCount();
      const res = await create(null, { category: 'iPhone 12', type: 'repair' });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      expect((await api.request('POST', '/guides', { token: 'no-such-token-xxxxxxxxxxxxxxxx', body: { category: 'iPhone 12', type: 'repair' } })).status).toBe(401);
      expect(await guideCount()).toBe(before);
    });

    it('requires category and type (422 naming both); writes nothing', async () => {
      const before = await guideCount();
      const res = await create('alice', { title: 'No category, no type' });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: true, message: expect.any(String), errors: expect.any(Array) });
      expect(fieldsOf(res).sort()).toEqual(['category', 'type']);
      expect(fieldsOf(await create('alice', { type: 'repair' }))).toEqual(['category']);
      expect(fieldsOf(await create('alice', { category: 'iPhone 12' }))).toEqual(['type']);
      expect(await guideCount()).toBe(before);
    });

    it('refuses an unknown category (422, field category), matched case-sensitively', async () => {
      const before = await guideCount();
      for (const category of ['No Such Device', 'iphone 12', '']) {
        const res = await create('alice', { category, type: 'repair' });
        expect({ category, status: res.status }).toEqual({ category, status: 422 });
        expect(fieldsOf(res)).toEqual(['category']);
      }
      expect(await guideCount()).toBe(before);
    });

    it('refuses unknown fields (422), read names included; writes nothing', async () => {
      const before = await guideCount();
      for (const field of ['introduction_raw', 'guideid', 'revisionid', 'author', 'bogus']) {
        const res = await create('alice', { category: 'iPhone 12', type: 'repair', [field]: 'x' });
        expect({ field, status: res.status }).toEqual({ field, status: 422 });
        expect(fieldsOf(res)).toEqual([field]);
        expect(res.body.errors[0].message).toContain(field);
      }
      expect(await guideCount()).toBe(before);
    });

    it('refuses bad values, one error per field', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ type: 'bogus' }, 'type'],
        [{ difficulty: 'Impossible' }, 'difficulty'],
        [{ summary: 'x'.repeat(157) }, 'summary'],
        [{ title: 'x'.repeat(256) }, 'title'],
        [{ public: 'yes' }, 'public'],
        [{ time_required_min: -1 }, 'time_required_min'],
        [{ time_required_min: 100, time_required_max: 50 }, 'time_required_min'],
        [{ image: 'abc' }, 'image'],
        [{ prerequisites: 'abc' }, 'prerequisites'],
        [{ prerequisites: [999999] }, 'prerequisites'],
        [{ flags: ['NO_SUCH_FLAG'] }, 'flags'],
        [{ parts: 'abc' }, 'parts'],
      ];
      const before = await guideCount();
      for (const [body, field] of cases) {
        const res = await create('alice', { category: 'iPhone 12', type: 'repair', ...body });
        expect({ body, status: res.status, fields: fieldsOf(res) }).toEqual({ body, status: 422, fields: [field] });
      }
      expect((await create('alice', { category: 'iPhone 12', type: 'repair', summary: 'x'.repeat(156) })).status).toBe(201);
      expect(await guideCount()).toBe(before + 1);
    });

    it('refuses the privileged flag GUIDE_STARRED from a non-admin (422) and accepts it from an Admin', async () => {
      const res = await create('alice', { category: 'iPhone 12', type: 'repair', flags: ['GUIDE_STARRED'] });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['flags']);
      const admin = await create('admin', { category: 'iPhone 12', type: 'repair', flags: ['GUIDE_STARRED'] });
      expect(admin.status).toBe(201);
      expect(admin.body.flags.map((f: { flagid: string }) => f.flagid)).toEqual(['GUIDE_STARRED']);
    });

    it('refuses a part or tool with a bad url, naming its index', async () => {
      const res = await create('alice', {
        category: 'iPhone 12',
        type: 'repair',
        parts: [{ name: 'Good part', url: 'https://example.com/good' }, { name: 'Bad part', url: 'javascript:alert(1)' }],
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'parts', index: 1, message: expect.any(String) })]);
      const tools = await create('alice', { category: 'iPhone 12', type: 'repair', tools: [{ name: 'Fine' }, { name: 'Fine too' }, { url: 'https://example.com/no-name' }] });
      expect(tools.status).toBe(422);
      expect(tools.body.errors).toEqual([expect.objectContaining({ field: 'tools', index: 2 })]);
    });

    it('refuses a body that is not an object (422)', async () => {
      const res = await api.request('POST', '/guides', { token: token.alice, body: '[1, 2]' });
      expect(res.status).toBe(422);
    });
  });

  describe('PATCH /guides/{id}?revisionid=N', () => {
    it('lets the author edit with the write names: 200, the guide (no inlined prerequisite steps), a new revision', async () => {
      const prerequisite = await newGuide('alice', { public: true });
      await addStep('alice', prerequisite.guideid, 'Prerequisite step.');
      const guide = await newGuide('alice', { public: true, prerequisites: [prerequisite.guideid] });
      const own = await addStep('alice', guide.guideid, 'Own step.');
      const rows = await revisionRows(guide.guideid);
      const res = await patch(guide.guideid, own.revisionid, {
        title: 'Edited title',
        summary: 'Edited summary',
        introduction: 'Edited introduction',
        conclusion: 'Edited conclusion',
        difficulty: 'Difficult',
        subject: 'Screen',
        time_required_min: 60,
        time_required_max: 120,
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(GUIDE_KEYS);
      expect(res.body).toMatchObject({
        title: 'Edited title',
        summary: 'Edited summary',
        introduction_raw: 'Edited introduction',
        conclusion_raw: 'Edited conclusion',
        difficulty: 'Difficult',
        subject: 'Screen',
        time_required_min: 60,
        time_required_max: 120,
        can_edit: true,
      });
      expect(res.body.revisionid).toBeGreaterThan(own.revisionid);
      expect(res.body.steps.map((s: { guideid: number }) => s.guideid)).toEqual([guide.guideid]);
      expect(await stored(guide.guideid)).toMatchObject({ revisionid: res.body.revisionid, title: 'Edited title', summary: 'Edited summary' });
      expect(await revisionRows(guide.guideid)).toBe(rows + 1);
      expect((await get(guide.guideid, 'alice', '?excludePrerequisiteSteps')).body).toEqual(res.body);
    });

    it('lets an Admin edit anyone\'s guide', async () => {
      const guide = await newGuide('alice');
      const res = await patch(guide.guideid, guide.revisionid, { title: 'Edited by the admin' }, 'admin');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'Edited by the admin', can_edit: true, author: { userid: user.alice } });
    });

    it('refuses another user (403), whatever the revision; nothing changes', async () => {
      const guide = await newGuide('alice', { public: true });
      for (const revisionid of [guide.revisionid, guide.revisionid + 1000]) {
        const res = await patch(guide.guideid, revisionid, { title: 'Hijacked' }, 'bob');
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      }
      expect(await stored(guide.guideid)).toMatchObject({ revisionid: guide.revisionid, title: guide.title });
    });

    it('needs a token (401)', async () => {
      const guide = await newGuide('alice');
      const res = await patch(guide.guideid, guide.revisionid, { title: 'Anonymous edit' }, null);
      expect(res.status).toBe(401);
      expect(await stored(guide.guideid)).toMatchObject({ title: guide.title });
    });

    it('requires revisionid (422 when missing or malformed)', async () => {
      const guide = await newGuide('alice');
      for (const revisionid of [null, 'abc', '0', '']) {
        const res = await patch(guide.guideid, revisionid, { title: 'No revision' });
        expect({ revisionid, status: res.status }).toEqual({ revisionid, status: 422 });
        expect(fieldsOf(res)).toEqual(['revisionid']);
      }
      expect(await stored(guide.guideid)).toMatchObject({ revisionid: guide.revisionid, title: guide.title });
    });

    it('answers 404 for an unknown or malformed guide id', async () => {
      for (const id of ['999999', 'abc']) {
        const res = await api.request('PATCH', `/guides/${id}?revisionid=1`, { token: token.alice, body: { title: 'x' } });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(GUIDE_NOT_FOUND);
      }
    });

    it('refuses a read name (introduction_raw) as an unknown field (422); nothing written', async () => {
      const guide = await newGuide('alice');
      const rows = await revisionRows(guide.guideid);
      const res = await patch(guide.guideid, guide.revisionid, { title: 'Changed', introduction_raw: 'Read name' });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['introduction_raw']);
      expect(await stored(guide.guideid)).toMatchObject({ revisionid: guide.revisionid, title: guide.title });
      expect(await revisionRows(guide.guideid)).toBe(rows);
    });

    it('answers a stale revisionid with 409 whose body is the current guide, as GET shows it to that viewer (without prerequisite steps)', async () => {
      const prerequisite = await newGuide('alice', { public: true });
      await addStep('alice', prerequisite.guideid, 'Prerequisite step.');
      const guide = await newGuide('alice', { public: true, prerequisites: [prerequisite.guideid] });
      await addStep('alice', guide.guideid, 'Own step.');
      const edited = await patch(guide.guideid, (await stored(guide.guideid)).revisionid, { title: 'Current title' });
      expect(edited.status).toBe(200);
      // The 409 body and the GET after it show the author's reputation: let the writes' events reach it first.
      await api.settle();
      const rows = await revisionRows(guide.guideid);
      for (const who of ['alice', 'admin'] as const) {
        const res = await patch(guide.guideid, guide.revisionid, { title: 'Stale edit' }, who);
        expect(res.status).toBe(409);
        expect(res.body).not.toHaveProperty('error');
        expect(res.body).toEqual((await get(guide.guideid, who, '?excludePrerequisiteSteps')).body);
        expect(res.body).toMatchObject({ title: 'Current title', revisionid: edited.body.revisionid });
      }
      expect(await stored(guide.guideid)).toMatchObject({ title: 'Current title', revisionid: edited.body.revisionid });
      expect(await revisionRows(guide.guideid)).toBe(rows);
    });

    it('keeps the revisionid on a no-op edit (same values, or no fields)', async () => {
      const guide = await newGuide('alice', { summary: 'Same summary', difficulty: 'Easy' });
      const rows = await revisionRows(guide.guideid);
      for (const body of [{}, { title: guide.title }, { title: guide.title, summary: 'Same summary', difficulty: 'Easy' }, { time_required: 'ignored' }]) {
        const res = await patch(guide.guideid, guide.revisionid, body);
        expect({ body, status: res.status, revisionid: res.body.revisionid }).toEqual({ body, status: 200, revisionid: guide.revisionid });
      }
      expect(await revisionRows(guide.guideid)).toBe(rows);
      expect((await stored(guide.guideid)).revisionid).toBe(guide.revisionid);
    });

    it('gives every change a new, larger revisionid', async () => {
      const guide = await newGuide('alice');
      let revisionid = guide.revisionid;
      for (const body of [{ title: 'One' }, { summary: 'Two' }, { difficulty: 'Moderate' }, { public: true }, { tools: [{ name: 'Spudger' }] }]) {
        const res = await patch(guide.guideid, revisionid, body);
        expect(res.status).toBe(200);
        expect(res.body.revisionid).toBeGreaterThan(revisionid);
        revisionid = res.body.revisionid;
      }
      expect((await stored(guide.guideid)).revisionid).toBe(revisionid);
    });

    it('writes nothing when validation fails (field values, unknown category, unknown prerequisite)', async () => {
      const guide = await newGuide('alice', { summary: 'Original summary' });
      const rows = await revisionRows(guide.guideid);
      for (const body of [
        { title: 'Changed', difficulty: 'Impossible' },
        { title: 'Changed', category: 'No Such Device' },
        { title: 'Changed', prerequisites: [999999] },
        { title: 'Changed', summary: 'x'.repeat(157) },
        { title: 'Changed', time_required_min: 600, time_required_max: 60 },
      ]) {
        const res = await patch(guide.guideid, guide.revisionid, body);
        expect({ body, status: res.status }).toEqual({ body, status: 422 });
        expect(await stored(guide.guideid)).toMatchObject({ revisionid: guide.revisionid, title: guide.title, summary: 'Original summary' });
      }
      expect(await revisionRows(guide.guideid)).toBe(rows);
      const after = await get(guide.guideid, 'alice');
      expect(after.body).toMatchObject({ revisionid: guide.revisionid, title: guide.title, summary: 'Original summary' });
    });

    it('refuses prerequisites that make a cycle, or the guide itself (422, field prerequisites)', async () => {
      const a = await newGuide('alice', { public: true });
      const b = await newGuide('alice', { public: true, prerequisites: [a.guideid] });
      const c = await newGuide('alice', { public: true, prerequisites: [b.guideid] });
      for (const prerequisites of [[b.guideid], [c.guideid], [a.guideid]]) {
        const res = await patch(a.guideid, a.revisionid, { prerequisites });
        expect({ prerequisites, status: res.status }).toEqual({ prerequisites, status: 422 });
        expect(fieldsOf(res)).toEqual(['prerequisites']);
      }
      expect((await stored(a.guideid)).revisionid).toBe(a.revisionid);
      // A prerequisite that makes no cycle is fine.
      const d = await newGuide('alice', { public: true });
      expect((await patch(c.guideid, c.revisionid, { prerequisites: [b.guideid, d.guideid] })).status).toBe(200);
    });

    it('GUIDE_STARRED: 422 from a non-admin; an Admin sets it (it shows in /guides/featured) and the author cannot drop it', async () => {
      const guide = await newGuide('alice', { public: true });
      const refused = await patch(guide.guideid, guide.revisionid, { flags: ['GUIDE_STARRED'] });
      expect(refused.status).toBe(422);
      expect(fieldsOf(refused)).toEqual(['flags']);
      expect((await stored(guide.guideid)).flags).toEqual([]);

      const starred = await patch(guide.guideid, guide.revisionid, { flags: ['GUIDE_STARRED'] }, 'admin');
      expect(starred.status).toBe(200);
      expect(starred.body.flags).toEqual([{ flagid: 'GUIDE_STARRED', title: 'Featured Guide', text: expect.any(String) }]);
      expect(idsOf(await api.request('GET', '/guides/featured?limit=200'))).toContain(guide.guideid);

      // Flags are a full replacement, but a privileged flag the author cannot touch is kept.
      const author = await patch(guide.guideid, starred.body.revisionid, { flags: ['GUIDE_IN_PROGRESS'] });
      expect(author.status).toBe(200);
      expect(author.body.flags.map((f: { flagid: string }) => f.flagid).sort()).toEqual(['GUIDE_IN_PROGRESS', 'GUIDE_STARRED']);

      const cleared = await patch(guide.guideid, author.body.revisionid, { flags: [] }, 'admin');
      expect(cleared.status).toBe(200);
      expect(cleared.body.flags).toEqual([]);
      expect(idsOf(await api.request('GET', '/guides/featured?limit=200'))).not.toContain(guide.guideid);
    });

    it('refuses parts with a bad url, naming the index; nothing written', async () => {
      const guide = await newGuide('alice', { parts: [{ name: 'Kept part' }] });
      const res = await patch(guide.guideid, guide.revisionid, { parts: [{ name: 'Fine' }, { name: 'Fine too' }, { name: 'Bad', url: 'ftp://example.com/x' }] });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'parts', index: 2 })]);
      const after = await get(guide.guideid, 'alice');
      expect(after.body.parts.map((p: { text: string }) => p.text)).toEqual(['Kept part']);
      expect(after.body.revisionid).toBe(guide.revisionid);
    });

    it('answers 20 concurrent edits with the same revisionid with exactly one 200 and nineteen 409s; the winner is what is stored', async () => {
      const guide = await newGuide('alice', { public: true });
      const rows = await revisionRows(guide.guideid);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => patch(guide.guideid, guide.revisionid, { title: `Concurrent title ${i}`, summary: `Concurrent summary ${i}` })),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      const winner = results.find((r) => r.status === 200)!.body;
      expect(winner.revisionid).toBeGreaterThan(guide.revisionid);
      const current = await get(guide.guideid, 'alice');
      expect(current.body).toMatchObject({ title: winner.title, summary: winner.summary, revisionid: winner.revisionid });
      // Title and summary come from the same request.
      expect(winner.title.replace('title', 'summary')).toBe(winner.summary);
      // Every loser was shown the winner's guide.
      for (const loser of results.filter((r) => r.status === 409)) {
        expect(loser.body).toMatchObject({ title: winner.title, revisionid: winner.revisionid });
      }
      expect(await revisionRows(guide.guideid)).toBe(rows + 1);
      expect(await stored(guide.guideid)).toMatchObject({ title: winner.title, summary: winner.summary, revisionid: winner.revisionid });
    });
  });

  describe('revisions', () => {
    it('gives guides and steps revision ids that are unique across both', async () => {
      const a = await newGuide('alice');
      await addStep('alice', a.guideid);
      await addStep('alice', a.guideid);
      const b = await newGuide('bob');
      await addStep('bob', b.guideid);
      const ids = (await api.sql<{ revisionid: number }>('SELECT revisionid FROM guide_revisions UNION ALL SELECT revisionid FROM guide_steps')).map((r) => r.revisionid);
      expect(new Set(ids).size).toBe(ids.length);
      const seen = [a, b].map(async (g) => {
        const body = (await get(g.guideid, 'admin')).body;
        return [body.revisionid, ...body.steps.map((s: { revisionid: number }) => s.revisionid)] as number[];
      });
      const all = (await Promise.all(seen)).flat();
      expect(new Set(all).size).toBe(all.length);
    });

    it('reads an old revision (?revisionid=): of a public guide for anyone, of a private one for its editors only (403); 404 for an unknown revision', async () => {
      const guide = await newGuide('alice', { public: true, title: 'Original title' });
      const withStep = await addStep('alice', guide.guideid, 'The first step.');
      const edited = await patch(guide.guideid, withStep.revisionid, { title: 'Newer title' });
      expect(edited.status).toBe(200);

      const first = await get(guide.guideid, 'alice', `?revisionid=${guide.revisionid}`);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ guideid: guide.guideid, title: 'Original title', revisionid: guide.revisionid, steps: [] });
      const second = await get(guide.guideid, 'admin', `?revisionid=${withStep.revisionid}`);
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ title: 'Original title', revisionid: withStep.revisionid });
      expect(second.body.steps.map((s: { lines: { text_raw: string }[] }) => s.lines[0]!.text_raw)).toEqual(['The first step.']);

      // The history of a public guide is public.
      for (const who of ['bob', null] as const) {
        const res = await get(guide.guideid, who, `?revisionid=${guide.revisionid}`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ title: 'Original title', revisionid: guide.revisionid, can_edit: false });
      }
      // That of a private guide follows its visibility.
      const hidden = await newGuide('alice', { title: 'Hidden' });
      const hiddenEdited = await patch(hidden.guideid, hidden.revisionid, { title: 'Still hidden' });
      expect(hiddenEdited.status).toBe(200);
      for (const who of ['bob', null] as const) {
        const res = await get(hidden.guideid, who, `?revisionid=${hidden.revisionid}`);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      }
      // The current revision is what everyone sees.
      const current = await get(guide.guideid, 'bob', `?revisionid=${edited.body.revisionid}`);
      expect(current.status).toBe(200);
      expect(current.body.title).toBe('Newer title');

      const unknown = await get(guide.guideid, 'alice', '?revisionid=999999');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: true, message: expect.any(String) });
      const other = await newGuide('alice');
      expect((await get(guide.guideid, 'alice', `?revisionid=${other.revisionid}`)).status).toBe(404);
    });
  });

  describe('DELETE /guides/{id}?revisionid=N', () => {
    it('soft-deletes for the sole author: 204, then 404 everywhere and gone from lists', async () => {
      const guide = await newGuide('alice', { public: true });
      const res = await api.request('DELETE', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, { token: token.alice });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      for (const who of [null, 'alice', 'admin'] as const) {
        const gone = await get(guide.guideid, who);
        expect(gone.status).toBe(404);
        expect(gone.body).toEqual(GUIDE_NOT_FOUND);
      }
      expect(idsOf(await api.request('GET', '/guides?limit=200'))).not.toContain(guide.guideid);
      expect(idsOf(await api.request('GET', '/user/guides?limit=200', { token: token.alice, appId: DEMO_APP_ID }))).not.toContain(guide.guideid);
      expect(idsOf(await api.request('GET', `/users/${user.alice}/guides?limit=200`))).not.toContain(guide.guideid);
      // Soft: the row stays, marked deleted.
      expect((await stored(guide.guideid)).deleted_at).not.toBeNull();
      expect((await patch(guide.guideid, (await stored(guide.guideid)).revisionid, { title: 'Back?' })).status).toBe(404);
      expect((await api.request('DELETE', `/guides/${guide.guideid}?revisionid=${(await stored(guide.guideid)).revisionid}`, { token: token.alice })).status).toBe(404);
      expect((await get(guide.guideid, 'alice', `?revisionid=${guide.revisionid}`)).status).toBe(404);
    });

    it('needs a token (401) and a revisionid (422); refuses others (403) and a stale revision (409, the current guide)', async () => {
      const guide = await newGuide('alice', { public: true });
      await addStep('alice', guide.guideid);
      const { revisionid } = await stored(guide.guideid);
      expect((await api.request('DELETE', `/guides/${guide.guideid}?revisionid=${revisionid}`)).status).toBe(401);
      const missing = await api.request('DELETE', `/guides/${guide.guideid}`, { token: token.alice });
      expect(missing.status).toBe(422);
      expect(fieldsOf(missing)).toEqual(['revisionid']);
      expect((await api.request('DELETE', `/guides/${guide.guideid}?revisionid=${revisionid}`, { token: token.bob })).status).toBe(403);
      // The 409 body and the GET after it show the author's reputation: let the writes' events reach it first.
      await api.settle();
      const stale = await api.request('DELETE', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, { token: token.alice });
      expect(stale.status).toBe(409);
      expect(stale.body).toEqual((await get(guide.guideid, 'alice', '?excludePrerequisiteSteps')).body);
      expect(await stored(guide.guideid)).toMatchObject({ revisionid, deleted_at: null });
      expect((await api.request('DELETE', '/guides/999999?revisionid=1', { token: token.alice })).status).toBe(404);
    });

    it('refuses the author once someone else contributed (403); an Admin may delete it', async () => {
      const guide = await newGuide('alice');
      const edited = await patch(guide.guideid, guide.revisionid, { summary: 'Improved by the admin' }, 'admin');
      expect(edited.status).toBe(200);
      const author = await api.request('DELETE', `/guides/${guide.guideid}?revisionid=${edited.body.revisionid}`, { token: token.alice });
      expect(author.status).toBe(403);
      expect((await stored(guide.guideid)).deleted_at).toBeNull();
      const admin = await api.request('DELETE', `/guides/${guide.guideid}?revisionid=${edited.body.revisionid}`, { token: token.admin });
      expect(admin.status).toBe(204);
      expect((await get(guide.guideid, 'alice')).status).toBe(404);
    });

    it('refuses to delete a guide that is another guide\'s prerequisite (422); allows it once the other is gone', async () => {
      const prerequisite = await newGuide('alice', { public: true });
      const dependent = await newGuide('alice', { public: true, prerequisites: [prerequisite.guideid] });
      const refused = await api.request('DELETE', `/guides/${prerequisite.guideid}?revisionid=${prerequisite.revisionid}`, { token: token.alice });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ error: true, message: expect.stringContaining(String(dependent.guideid)), errors: expect.any(Array) });
      expect(await stored(prerequisite.guideid)).toMatchObject({ revisionid: prerequisite.revisionid, deleted_at: null });
      expect((await api.request('DELETE', `/guides/${dependent.guideid}?revisionid=${dependent.revisionid}`, { token: token.alice })).status).toBe(204);
      expect((await api.request('DELETE', `/guides/${prerequisite.guideid}?revisionid=${prerequisite.revisionid}`, { token: token.alice })).status).toBe(204);
    });
  });

  describe('PUT/DELETE /guides/{id}/public?revisionid=N', () => {
    it('publishes: 200, the guide, a new revision, listed, one GuidePublished event; again keeps the revisionid', async () => {
      const guide = await newGuide('bob');
      const res = await api.request('PUT', `/guides/${guide.guideid}/public?revisionid=${guide.revisionid}`, { token: token.bob, body: {} });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(GUIDE_KEYS);
      expect(res.body).toMatchObject({ guideid: guide.guideid, public: true });
      expect(res.body.revisionid).toBeGreaterThan(guide.revisionid);
      expect(res.body.published_date).toBeGreaterThan(0);
      expect((await get(guide.guideid)).status).toBe(200);
      expect(idsOf(await api.request('GET', '/guides?limit=200'))).toContain(guide.guideid);
      const events = await eventsOf(guide.guideid);
      expect(events.map((e) => e.type)).toEqual(['GuidePublished']);
      expect(events[0]!.payload).toMatchObject({ guideId: guide.guideid, authorId: user.bob });

      const rows = await revisionRows(guide.guideid);
      const again = await api.request('PUT', `/guides/${guide.guideid}/public?revisionid=${res.body.revisionid}`, { token: token.bob });
      expect(again.status).toBe(200);
      expect(again.body.revisionid).toBe(res.body.revisionid);
      expect(await revisionRows(guide.guideid)).toBe(rows);
      expect((await eventsOf(guide.guideid)).filter((e) => e.type === 'GuidePublished')).toHaveLength(1);
    });

    it('unpublishes: 200, private again (403 to others, unlisted); again keeps the revisionid', async () => {
      const guide = await newGuide('bob', { public: true });
      const res = await api.request('DELETE', `/guides/${guide.guideid}/public?revisionid=${guide.revisionid}`, { token: token.bob });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ guideid: guide.guideid, public: false });
      expect(res.body.revisionid).toBeGreaterThan(guide.revisionid);
      expect((await get(guide.guideid)).status).toBe(403);
      expect(idsOf(await api.request('GET', '/guides?limit=200'))).not.toContain(guide.guideid);
      const again = await api.request('DELETE', `/guides/${guide.guideid}/public?revisionid=${res.body.revisionid}`, { token: token.bob });
      expect(again.status).toBe(200);
      expect(again.body.revisionid).toBe(res.body.revisionid);
    });

    it('publishing through PATCH {public: true} also writes one GuidePublished event', async () => {
      const guide = await newGuide('alice');
      const res = await patch(guide.guideid, guide.revisionid, { public: true });
      expect(res.status).toBe(200);
      expect(res.body.public).toBe(true);
      expect((await eventsOf(guide.guideid)).map((e) => e.type)).toEqual(['GuidePublished']);
    });

    it('lets an Admin publish someone else\'s guide', async () => {
      const guide = await newGuide('bob');
      const res = await api.request('PUT', `/guides/${guide.guideid}/public?revisionid=${guide.revisionid}`, { token: token.admin });
      expect(res.status).toBe(200);
      expect(res.body.public).toBe(true);
    });

    it('401 without token, 422 without revisionid, 403 for others, 409 with the current guide when stale, 404 when unknown', async () => {
      const guide = await newGuide('bob');
      const url = (rev?: number) => `/guides/${guide.guideid}/public${rev === undefined ? '' : `?revisionid=${rev}`}`;
      for (const method of ['PUT', 'DELETE']) {
        expect((await api.request(method, url(guide.revisionid))).status).toBe(401);
        const missing = await api.request(method, url(), { token: token.bob });
        expect(missing.status).toBe(422);
        expect(fieldsOf(missing)).toEqual(['revisionid']);
        expect((await api.request(method, url(guide.revisionid), { token: token.alice })).status).toBe(403);
        // The 409 body and the GET after it show the author's reputation: let the writes' events reach it first.
        await api.settle();
        const stale = await api.request(method, url(guide.revisionid - 1), { token: token.bob });
        expect(stale.status).toBe(409);
        expect(stale.body).toEqual((await get(guide.guideid, 'bob', '?excludePrerequisiteSteps')).body);
        expect((await api.request(method, '/guides/999999/public?revisionid=1', { token: token.bob })).status).toBe(404);
      }
      expect(await stored(guide.guideid)).toMatchObject({ revisionid: guide.revisionid, is_public: false });
      expect(await eventsOf(guide.guideid)).toEqual([]);
    });
  });
});
