import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/** What each viewer's lists show once guides are private, prerequisite-only, or change visibility. */
describe('guide visibility in marks and lists', () => {
  let api: TestApi;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    api = await startTestApi();
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
  });
  afterAll(() => api.close());

  async function publicGuide(title: string, extra: Record<string, unknown> = {}): Promise<{ id: number; revisionid: number }> {
    const res = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title, public: true, ...extra } });
    expect(res.status).toBe(201);
    return { id: res.body.guideid, revisionid: res.body.revisionid };
  }

  const userIdOf = async (email: string) => (await api.sql<{ id: number }>('SELECT id FROM users WHERE email = $1', [email]))[0]!.id;

  it('a guide made private leaves the lists of those who marked it, and they can still remove their marks', async () => {
    const guide = await publicGuide('Soon private');
    expect((await api.request('PUT', `/user/favorites/guides/${guide.id}`, { token: bob })).status).toBe(204);
    expect((await api.request('PUT', `/guides/${guide.id}/completed`, { token: bob })).status).toBe(204);
    expect((await api.request('DELETE', `/guides/${guide.id}/public?revisionid=${guide.revisionid}`, { token: alice })).status).toBe(200);

    expect((await api.request('GET', `/guides/${guide.id}`, { token: bob })).status).toBe(403);
    const favorites = await api.request('GET', '/user/favorites/guides?limit=200', { token: bob });
    expect(favorites.body.map((f: { guide: { guideid: number } }) => f.guide.guideid)).not.toContain(guide.id);
    const completions = await api.request('GET', '/user/completions?limit=200', { token: bob });
    expect(completions.body.map((g: { guideid: number }) => g.guideid)).not.toContain(guide.id);

    expect((await api.request('DELETE', `/user/favorites/guides/${guide.id}`, { token: bob })).status).toBe(204);
    expect((await api.request('DELETE', `/guides/${guide.id}/completed`, { token: bob })).status).toBe(204);
    expect(await api.sql('SELECT 1 FROM guide_marks WHERE guide_id = $1', [guide.id])).toEqual([]);
    // Marking it again is refused: it cannot be seen.
    expect((await api.request('PUT', `/user/favorites/guides/${guide.id}`, { token: bob })).status).toBe(404);
  });

  it('the author still sees their own private guides in their own marks', async () => {
    const guide = await publicGuide('Mine, private later');
    await api.request('PUT', `/user/favorites/guides/${guide.id}`, { token: alice });
    await api.request('DELETE', `/guides/${guide.id}/public?revisionid=${guide.revisionid}`, { token: alice });
    const favorites = await api.request('GET', '/user/favorites/guides?limit=200', { token: alice });
    expect(favorites.body.map((f: { guide: { guideid: number } }) => f.guide.guideid)).toContain(guide.id);
  });

  it("other people's views of a user leave out prerequisite-only guides; the user's own lists keep them", async () => {
    const prereqOnly = await publicGuide('Only a prerequisite', { flags: ['GUIDE_PREREQ_ONLY'] });
    await api.request('PUT', `/user/favorites/guides/${prereqOnly.id}`, { token: bob });
    const aliceId = await userIdOf(DEMO_ACCOUNTS.alice.email);
    const bobId = await userIdOf(DEMO_ACCOUNTS.bob.email);

    const publicGuides = await api.request('GET', `/users/${aliceId}/guides?limit=200`);
    expect(publicGuides.body.map((g: { guideid: number }) => g.guideid)).not.toContain(prereqOnly.id);
    const publicFavorites = await api.request('GET', `/users/${bobId}/favorites/guides?limit=200`);
    expect(publicFavorites.body.map((f: { guide: { guideid: number } }) => f.guide.guideid)).not.toContain(prereqOnly.id);

    const own = await api.request('GET', '/user/guides?limit=200', { token: alice, appId: 'demo-app-id' });
    expect(own.body.map((g: { guideid: number }) => g.guideid)).toContain(prereqOnly.id);
    const ownFavorites = await api.request('GET', '/user/favorites/guides?limit=200', { token: bob });
    expect(ownFavorites.body.map((f: { guide: { guideid: number } }) => f.guide.guideid)).toContain(prereqOnly.id);
  });

  it("a summary's prereq_modified_date ignores private prerequisites, as the full guide does", async () => {
    const hidden = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'Private prerequisite' } });
    const main = await publicGuide('Uses a private prerequisite', { prerequisites: [hidden.body.guideid] });
    const summary = (await api.request('GET', `/guides?guideids=${main.id}`)).body[0];
    const full = (await api.request('GET', `/guides/${main.id}`)).body;
    expect(full.prerequisites).toEqual([]);
    expect(summary.prereq_modified_date).toBe(0);
    expect(full.prereq_modified_date).toBe(0);
  });

  it('a step edit refuses fields of step creation such as orderby (422), changing nothing', async () => {
    const guide = await publicGuide('Steps');
    const added = await api.request('POST', `/guides/${guide.id}/steps`, { token: alice, body: { lines: [{ text: 'One', bullet: 'black', level: 0 }] } });
    const step = added.body.steps.at(-1);
    const res = await api.request('PATCH', `/guides/${guide.id}/steps/${step.stepid}?revisionid=${step.revisionid}`, { token: alice, body: { orderby: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'orderby' })]);
  });
});
