import { isEventDelivery } from './support/event-delivery.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

type Who = 'alice' | 'bob' | 'admin';

const GUIDE_PRIVATE = { error: true, message: 'Guide is private.' };
const fieldsOf = (res: ApiResponse) => ((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field);

/** History, diff and revert of guides; who may edit a guide besides its author (collaborators and teams). */
describe('guides over HTTP: history, diff, revert, collaborators and teams', () => {
  let api: TestApi;
  const statements: string[] = [];
  const token: Record<Who, string> = { alice: '', bob: '', admin: '' };
  const user: Record<Who, number> = { alice: 0, bob: 0, admin: 0 };
  let serial = 0;

  const auth = (who: Who | string | null) => (who === null ? undefined : who in token ? token[who as Who] : who);
  const req = (method: string, path: string, who: Who | string | null = 'alice', body?: unknown) => api.request(method, path, { token: auth(who), body });

  /** A new guide of alice's with `steps` steps (one line each). */
  const newGuide = async (fields: Record<string, unknown> = {}, steps: string[] = []) => {
    serial += 1;
    const res = await req('POST', '/guides', 'alice', { category: 'iPhone 12', type: 'repair', title: `History ${serial}`, ...fields });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    let guide = res.body as { guideid: number; revisionid: number; steps: { stepid: number; revisionid: number }[] };
    for (const text of steps) {
      const added = await req('POST', `/guides/${guide.guideid}/steps`, 'alice', { lines: [{ text, bullet: 'black', level: 0 }] });
      if (added.status !== 201) throw new Error(`step failed: ${added.status} ${added.text}`);
      guide = added.body;
    }
    return guide;
  };

  /** A new account, logged in. */
  const register = async () => {
    serial += 1;
    const account = { email: `collab${serial}@example.com`, username: `Collab ${serial}`, unique_username: `collab${serial}`, password: 'collab-test-password' };
    const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return { userid: res.body.userid as number, token: res.body.authToken as string };
  };

  const revisionsOf = async (id: number, who: Who | string | null = null, query = '') => req('GET', `/guides/${id}/revisions${query}`, who);

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    for (const who of ['alice', 'bob', 'admin'] as const) {
      token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
      user[who] = (await api.request('GET', '/user', { token: token[who] })).body.userid;
    }
  });
  afterAll(() => api.close());

  describe('GET /guides/{id}/revisions', () => {
    it('lists the revisions newest first, paged, with their author, summary of change (body or query) and language', async () => {
      const guide = await newGuide({ public: true, summary_of_change: 'First draft' });
      const edited = await req('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, 'alice', { title: 'Renamed', summary_of_change: 'A better title' });
      expect(edited.status).toBe(200);
      const published = await req('DELETE', `/guides/${guide.guideid}/public?revisionid=${edited.body.revisionid}&summary_of_change=${encodeURIComponent('Hidden for now')}`);
      expect(published.status).toBe(200);

      const res = await revisionsOf(guide.guideid);
      expect(res.status).toBe(403); // private now: its history follows it
      const mine = await revisionsOf(guide.guideid, 'alice');
      expect(mine.status).toBe(200);
      expect(mine.body.map((r: { summary_of_change: string | null }) => r.summary_of_change)).toEqual(['Hidden for now', 'A better title', 'First draft']);
      expect(mine.body.map((r: { revisionid: number }) => r.revisionid)).toEqual([published.body.revisionid, edited.body.revisionid, guide.revisionid]);
      expect(mine.body[0]).toEqual({
        revisionid: published.body.revisionid,
        date: expect.any(Number),
        author: expect.objectContaining({ userid: user.alice, username: DEMO_ACCOUNTS.alice.username }),
        summary_of_change: 'Hidden for now',
        langid: 'en',
      });
      const page = await revisionsOf(guide.guideid, 'alice', '?limit=1&offset=1');
      expect(page.body.map((r: { revisionid: number }) => r.revisionid)).toEqual([edited.body.revisionid]);
    });

    it("is public for a public guide; a private guide's history is 403 to others; 404 unknown; 400 bad paging", async () => {
      const guide = await newGuide({ public: true });
      expect((await revisionsOf(guide.guideid)).status).toBe(200);
      expect((await revisionsOf(guide.guideid, 'bob')).status).toBe(200);
      const hidden = await newGuide();
      for (const who of [null, 'bob'] as const) expect(await revisionsOf(hidden.guideid, who)).toMatchObject({ status: 403, body: GUIDE_PRIVATE });
      expect((await revisionsOf(hidden.guideid, 'admin')).status).toBe(200);
      expect((await revisionsOf(999_999)).status).toBe(404);
      expect((await revisionsOf(guide.guideid, null, '?limit=-1')).status).toBe(400);
    });

    it('refuses a summary_of_change that is too long (422) and writes nothing', async () => {
      const guide = await newGuide();
      const res = await req('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, 'alice', { title: 'Nope', summary_of_change: 'x'.repeat(256) });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['summary_of_change']);
      expect((await revisionsOf(guide.guideid, 'alice')).body).toHaveLength(1);
      const notText = await req('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, 'alice', { title: 'Nope', summary_of_change: { $ne: 1 } });
      expect(notText.status).toBe(422);
      expect(fieldsOf(notText)).toEqual(['summary_of_change']);
      const bad = await req('POST', `/guides/${guide.guideid}/steps?summary_of_change=${'y'.repeat(300)}`, 'alice', { lines: [{ text: 'x', bullet: 'black', level: 0 }] });
      expect(bad.status).toBe(422);
    });

    it('lets anyone read a past revision of a public guide (GET ?revisionid)', async () => {
      const guide = await newGuide({ public: true, title: 'Before' });
      await req('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, 'alice', { title: 'After' });
      const old = await req('GET', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, null);
      expect(old.status).toBe(200);
      expect(old.body).toMatchObject({ title: 'Before', revisionid: guide.revisionid, can_edit: false });
    });
  });

  describe('GET /guides/{id}/diff', () => {
    it('answers the changed fields, the steps added, removed, moved and edited, and a unified diff', async () => {
      const guide = await newGuide({ public: true, introduction: 'Line one\nLine two' }, ['Open', 'Unscrew', 'Lift']);
      const [open, unscrew, lift] = guide.steps;
      expect((await req('DELETE', `/guides/${guide.guideid}/steps/${open!.stepid}?revisionid=${open!.revisionid}`)).status).toBe(200);
      const patched = await req('PATCH', `/guides/${guide.guideid}/steps/${unscrew!.stepid}?revisionid=${unscrew!.revisionid}`, 'alice', { lines: [{ text: 'Unscrew all four', bullet: 'black', level: 0 }] });
      expect(patched.status).toBe(200);
      const current = (await req('GET', `/guides/${guide.guideid}`, 'alice')).body;
      expect((await req('PATCH', `/guides/${guide.guideid}?revisionid=${current.revisionid}`, 'alice', { introduction: 'Line one\nLine 2' })).status).toBe(200);
      const now = (await req('POST', `/guides/${guide.guideid}/steps`, 'alice', { lines: [{ text: 'Close', bullet: 'black', level: 0 }], orderby: 1 })).body;

      const res = await req('GET', `/guides/${guide.guideid}/diff?from=${guide.revisionid}&to=${now.revisionid}`, null);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ guideid: guide.guideid, from_revisionid: guide.revisionid, to_revisionid: now.revisionid });
      expect(res.body.fields).toEqual([
        { field: 'introduction', from: 'Line one\nLine two', to: 'Line one\nLine 2', lines: [{ type: 'context', lines: ['Line one'] }, { type: 'removed', lines: ['Line two'] }, { type: 'added', lines: ['Line 2'] }] },
      ]);
      expect(res.body.steps.removed).toEqual([{ stepid: open!.stepid, orderby: 1, title: '' }]);
      expect(res.body.steps.added).toEqual([expect.objectContaining({ orderby: 1, lines: [expect.objectContaining({ text: 'Close' })] })]);
      expect(res.body.steps.moved).toEqual([]);
      expect(res.body.steps.edited).toEqual([
        { stepid: unscrew!.stepid, orderby: 2, lines: [{ type: 'removed', lines: [expect.objectContaining({ text: 'Unscrew' })] }, { type: 'added', lines: [expect.objectContaining({ text: 'Unscrew all four' })] }] },
      ]);
      expect(res.body.steps.edited.map((e: { stepid: number }) => e.stepid)).not.toContain(lift!.stepid);
      expect(res.body.unified).toContain(`--- guide/${guide.guideid}@${guide.revisionid}`);
      expect(res.body.unified).toContain('-Line two');
      expect(res.body.unified).toContain('+* [black] Close');
    });

    it('400 without from/to, 404 for a revision of another guide, 403 for a private guide, 404 unknown guide', async () => {
      const guide = await newGuide({ public: true });
      const other = await newGuide({ public: true });
      expect((await req('GET', `/guides/${guide.guideid}/diff?from=${guide.revisionid}`, null)).status).toBe(400);
      expect((await req('GET', `/guides/${guide.guideid}/diff?from=abc&to=${guide.revisionid}`, null)).status).toBe(400);
      expect(await req('GET', `/guides/${guide.guideid}/diff?from=${other.revisionid}&to=${guide.revisionid}`, null)).toMatchObject({ status: 404, body: { error: true, message: 'Revision not found' } });
      const hidden = await newGuide();
      expect(await req('GET', `/guides/${hidden.guideid}/diff?from=${hidden.revisionid}&to=${hidden.revisionid}`, 'bob')).toMatchObject({ status: 403, body: GUIDE_PRIVATE });
      expect((await req('GET', `/guides/${hidden.guideid}/diff?from=${hidden.revisionid}&to=${hidden.revisionid}`, 'alice')).status).toBe(200);
      expect((await req('GET', `/guides/999999/diff?from=1&to=2`, null)).status).toBe(404);
    });
  });

  describe('POST /guides/{id}/revert', () => {
    it('makes the old content a new revision (fields and steps), with the summary of change', async () => {
      const guide = await newGuide({ public: true, title: 'Original' }, ['One', 'Two']);
      const [, two] = guide.steps;
      const removed = (await req('DELETE', `/guides/${guide.guideid}/steps/${two!.stepid}?revisionid=${two!.revisionid}`)).body;
      const renamed = (await req('PATCH', `/guides/${guide.guideid}?revisionid=${removed.revisionid}`, 'alice', { title: 'Vandalised' })).body;

      const res = await req('POST', `/guides/${guide.guideid}/revert?revisionid=${renamed.revisionid}&to_revisionid=${guide.revisionid}&summary_of_change=Undo`);
      expect(res.status).toBe(200);
      expect(res.body.revisionid).toBeGreaterThan(renamed.revisionid);
      expect(res.body.title).toBe('Original');
      expect(res.body.steps.map((s: { stepid: number; lines: { text_raw: string }[] }) => [s.stepid, s.lines[0]!.text_raw])).toEqual(guide.steps.map((s: { stepid: number }, i) => [s.stepid, ['One', 'Two'][i]]));
      const diff = await req('GET', `/guides/${guide.guideid}/diff?from=${guide.revisionid}&to=${res.body.revisionid}`, null);
      expect(diff.body.fields).toEqual([]);
      expect(diff.body.steps).toEqual({ added: [], removed: [], moved: [], edited: [] });
      expect((await revisionsOf(guide.guideid)).body[0]).toMatchObject({ revisionid: res.body.revisionid, summary_of_change: 'Undo' });
      // The anonymous (cached) body is the reverted one.
      expect((await req('GET', `/guides/${guide.guideid}`, null)).body).toMatchObject({ title: 'Original', revisionid: res.body.revisionid });
    });

    it('401 without a token, 403 for a stranger, 404 unknown guide, 409 stale (the current guide), 422 bad or missing revisions', async () => {
      const guide = await newGuide();
      const edited = (await req('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, 'alice', { title: 'Edited' })).body;
      const other = await newGuide();
      const revert = (query: string, who: Who | null = 'alice', id = guide.guideid) => req('POST', `/guides/${id}/revert${query}`, who);
      expect((await revert(`?revisionid=${edited.revisionid}&to_revisionid=${guide.revisionid}`, null)).status).toBe(401);
      expect((await revert(`?revisionid=${edited.revisionid}&to_revisionid=${guide.revisionid}`, 'bob')).status).toBe(403);
      expect((await revert(`?revisionid=1&to_revisionid=1`, 'alice', 999_999)).status).toBe(404);
      const stale = await revert(`?revisionid=${guide.revisionid}&to_revisionid=${guide.revisionid}`);
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ guideid: guide.guideid, revisionid: edited.revisionid, title: 'Edited' });
      const foreign = await revert(`?revisionid=${edited.revisionid}&to_revisionid=${other.revisionid}`);
      expect(foreign.status).toBe(422);
      expect(fieldsOf(foreign)).toEqual(['to_revisionid']);
      expect(fieldsOf(await revert(`?to_revisionid=${guide.revisionid}`))).toEqual(['revisionid']);
      expect(fieldsOf(await revert(`?revisionid=${edited.revisionid}`))).toEqual(['to_revisionid']);
      expect((await req('GET', `/guides/${guide.guideid}`, 'alice')).body).toMatchObject({ title: 'Edited', revisionid: edited.revisionid });
    });
  });

  describe('collaborators: /guides/{id}/users', () => {
    it("lets the author add a collaborator, who may then edit (can_edit true for them only; the anonymous cached body stays can_edit false)", async () => {
      const guide = await newGuide({ public: true });
      const carol = await register();
      expect((await req('GET', `/guides/${guide.guideid}`, carol.token)).body.can_edit).toBe(false);
      expect((await req('GET', `/guides/${guide.guideid}`, null)).body.can_edit).toBe(false); // cached now
      expect((await req('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, carol.token, { title: 'Carol was here' })).status).toBe(403);

      const added = await req('PUT', `/guides/${guide.guideid}/users/${carol.userid}`);
      expect(added.status).toBe(201);
      expect(added.body).toEqual([expect.objectContaining({ userid: carol.userid, username: expect.stringMatching(/^Collab /) })]);
      expect(added.body[0]).not.toHaveProperty('privileges');
      expect((await req('PUT', `/guides/${guide.guideid}/users/${carol.userid}`)).body).toHaveLength(1); // no-op

      expect((await req('GET', `/guides/${guide.guideid}`, carol.token)).body.can_edit).toBe(true);
      expect((await req('GET', `/guides/${guide.guideid}`, null)).body.can_edit).toBe(false);
      const edited = await req('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, carol.token, { title: 'Carol was here', summary_of_change: 'Clearer' });
      expect(edited.status).toBe(200);
      expect(edited.body.can_edit).toBe(true);
      expect((await revisionsOf(guide.guideid)).body[0]).toMatchObject({ author: expect.objectContaining({ userid: carol.userid }), summary_of_change: 'Clearer' });
      expect((await req('GET', `/guides/${guide.guideid}/users`, 'bob')).body.map((u: { userid: number }) => u.userid)).toEqual([carol.userid]);

      const removed = await req('DELETE', `/guides/${guide.guideid}/users/${carol.userid}`);
      expect(removed).toMatchObject({ status: 200, body: { users: [] } });
      expect((await req('GET', `/guides/${guide.guideid}`, carol.token)).body.can_edit).toBe(false);
      expect((await req('PATCH', `/guides/${guide.guideid}?revisionid=${edited.body.revisionid}`, carol.token, { title: 'Again' })).status).toBe(403);
    });

    it('only the author or an Admin choose collaborators (BOLA): a collaborator or a stranger gets 403', async () => {
      const guide = await newGuide({ public: true });
      const carol = await register();
      const dave = await register();
      expect((await req('PUT', `/guides/${guide.guideid}/users/${dave.userid}`, 'bob')).status).toBe(403);
      expect((await req('PUT', `/guides/${guide.guideid}/users/${carol.userid}`, 'admin')).status).toBe(201);
      expect((await req('PUT', `/guides/${guide.guideid}/users/${dave.userid}`, carol.token)).status).toBe(403);
      expect((await req('DELETE', `/guides/${guide.guideid}/users/${carol.userid}`, 'bob')).status).toBe(403);
      expect((await req('GET', `/guides/${guide.guideid}/users`, 'alice')).body.map((u: { userid: number }) => u.userid)).toEqual([carol.userid]);
      const rows = await api.sql('SELECT user_id FROM guide_collaborators WHERE guide_id = $1', [guide.guideid]);
      expect(rows).toEqual([{ user_id: carol.userid }]);
    });

    it('401 without a token; 403 for a guide that does not exist or is private; 404 unknown user or guide on PUT; unknown user on DELETE changes nothing', async () => {
      const guide = await newGuide();
      expect((await req('GET', `/guides/${guide.guideid}/users`, null)).status).toBe(401);
      expect((await req('PUT', `/guides/${guide.guideid}/users/${user.bob}`, null)).status).toBe(401);
      expect((await req('DELETE', `/guides/${guide.guideid}/users/${user.bob}`, null)).status).toBe(401);
      expect(await req('GET', `/guides/999999/users`)).toMatchObject({ status: 403, body: GUIDE_PRIVATE });
      expect(await req('GET', `/guides/${guide.guideid}/users`, 'bob')).toMatchObject({ status: 403, body: GUIDE_PRIVATE });
      expect((await req('PUT', `/guides/${guide.guideid}/users/999999`)).status).toBe(404);
      expect((await req('PUT', `/guides/999999/users/${user.bob}`)).status).toBe(404);
      expect((await req('DELETE', `/guides/999999/users/${user.bob}`)).status).toBe(403);
      expect(await req('DELETE', `/guides/${guide.guideid}/users/999999`)).toMatchObject({ status: 200, body: { users: [] } });
      // The private guide is visible to its collaborator.
      await req('PUT', `/guides/${guide.guideid}/users/${user.bob}`);
      expect((await req('GET', `/guides/${guide.guideid}`, 'bob')).status).toBe(200);
      expect((await revisionsOf(guide.guideid, 'bob')).status).toBe(200);
    });

    it('lists 12 collaborators in as many SQL statements as 1 (no N+1)', async () => {
      const small = await newGuide();
      const large = await newGuide();
      const people = await Promise.all(Array.from({ length: 12 }, () => register()));
      await req('PUT', `/guides/${small.guideid}/users/${people[0]!.userid}`);
      for (const p of people) await req('PUT', `/guides/${large.guideid}/users/${p.userid}`);
      const count = async (id: number) => {
        await api.settle();
        const before = statements.length;
        const res = await req('GET', `/guides/${id}/users`);
        expect(res.status).toBe(200);
        return { n: statements.slice(before).filter((sql) => !/^(begin|commit|rollback)/i.test(sql.trim()) && !isEventDelivery(sql)).length, body: res.body };
      };
      const one = await count(small.guideid);
      const twelve = await count(large.guideid);
      expect(twelve.body.map((u: { userid: number }) => u.userid)).toEqual(people.map((p) => p.userid).sort((a, b) => a - b));
      expect(one.n).toBeGreaterThan(0);
      expect(twelve.n).toBe(one.n);
    });
  });

  describe('teams: /guides/{id}/teams', () => {
    it("lets the members of a guide's team edit it; the author or an Admin choose the teams", async () => {
      const guide = await newGuide();
      const team = await req('POST', '/teams', 'bob', { name: `Fixers ${++serial}` });
      expect(team.status).toBe(201);
      const teamid = team.body.teamid as number;
      expect((await req('GET', `/guides/${guide.guideid}/teams`, 'bob')).status).toBe(403); // private, not his
      expect((await req('PUT', `/guides/${guide.guideid}/teams/${teamid}`, 'bob')).status).toBe(403);

      const added = await req('PUT', `/guides/${guide.guideid}/teams/${teamid}`);
      expect(added.status).toBe(201);
      expect(added.body).toEqual({ guideTeams: [expect.objectContaining({ teamid, name: team.body.name, member_count: 1 })], canIViewGuide: true, canIEditGuide: true, canIChangeGuidePrivacy: true });
      const seen = await req('GET', `/guides/${guide.guideid}/teams`, 'bob');
      expect(seen.body).toMatchObject({ guideTeams: [expect.objectContaining({ teamid })], canIViewGuide: true, canIEditGuide: true, canIChangeGuidePrivacy: true });
      expect((await req('GET', `/guides/${guide.guideid}`, 'bob')).body.can_edit).toBe(true);
      const edited = await req('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, 'bob', { title: 'Team work' });
      expect(edited.status).toBe(200);

      expect((await req('DELETE', `/guides/${guide.guideid}/teams/${teamid}`, null)).status).toBe(401);
      expect((await req('DELETE', `/guides/${guide.guideid}/teams/${teamid}`, 'bob')).status).toBe(403); // a member, not the author
      const removed = await req('DELETE', `/guides/${guide.guideid}/teams/${teamid}`);
      expect(removed).toMatchObject({ status: 200, body: { guideTeams: [] } });
      expect((await req('PATCH', `/guides/${guide.guideid}?revisionid=${edited.body.revisionid}`, 'bob', { title: 'Again' })).status).toBe(403);
    });

    it('401 without a token; 403 for a missing guide on GET; 404 unknown team on PUT and unknown guide on PUT/DELETE', async () => {
      const guide = await newGuide({ public: true });
      expect((await req('GET', `/guides/${guide.guideid}/teams`, null)).status).toBe(401);
      expect((await req('PUT', `/guides/${guide.guideid}/teams/1`, null)).status).toBe(401);
      expect(await req('GET', `/guides/999999/teams`)).toMatchObject({ status: 403, body: GUIDE_PRIVATE });
      expect(await req('PUT', `/guides/${guide.guideid}/teams/999999`)).toMatchObject({ status: 404, body: { error: true, message: 'Team not found' } });
      expect((await req('PUT', `/guides/999999/teams/1`)).status).toBe(404);
      expect((await req('DELETE', `/guides/999999/teams/1`)).status).toBe(404);
      const bobs = await req('GET', `/guides/${guide.guideid}/teams`, 'bob');
      expect(bobs.body).toEqual({ guideTeams: [], canIViewGuide: true, canIEditGuide: false, canIChangeGuidePrivacy: false });
    });
  });
});
