import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/** The tree stays whole under concurrent writes, and out-of-range ids are a client error. */
describe('catalog integrity under concurrency', () => {
  let api: TestApi;
  let admin: string;

  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
  });
  afterAll(() => api.close());

  const create = (title: string, parent: string | null) =>
    api.request('POST', '/wikis', { token: admin, body: { namespace: 'CATEGORY', title, parent, contents: '' } });
  const revisionOf = async (title: string) => (await api.request('GET', `/wikis/CATEGORY/${encodeURIComponent(title)}`)).body.revisionid as number;

  it('never leaves a live category under a deleted parent (delete and create racing)', async () => {
    for (let round = 0; round < 5; round++) {
      expect((await create(`RaceParent${round}`, 'Appliance')).status).toBe(201);
      const revision = await revisionOf(`RaceParent${round}`);
      const [deleted, created] = await Promise.all([
        api.request('DELETE', `/wikis/CATEGORY/RaceParent${round}?revisionid=${revision}`, { token: admin }),
        create(`RaceChild${round}`, `RaceParent${round}`),
      ]);
      // Exactly one wins: the delete (and the child has no such parent), or the child (and the delete is refused).
      expect([deleted.status, created.status].sort()).toEqual(deleted.status === 204 ? [204, 422] : [201, 422]);
    }
    const orphans = await api.sql(
      `SELECT c.title FROM wiki_pages c JOIN wiki_pages p ON p.id = c.parent_id WHERE c.deleted_at IS NULL AND p.deleted_at IS NOT NULL`,
    );
    expect(orphans).toEqual([]);
  });

  it('answers two opposite moves with one success and one refusal, never a 500 (deadlocks are retried)', async () => {
    for (let round = 0; round < 5; round++) {
      await create(`MoveA${round}`, null);
      await create(`MoveB${round}`, null);
      const [a, b] = await Promise.all([revisionOf(`MoveA${round}`), revisionOf(`MoveB${round}`)]);
      const results = await Promise.all([
        api.request('PATCH', `/wikis/CATEGORY/MoveA${round}?revisionid=${a}`, { token: admin, body: { parent: `MoveB${round}` } }),
        api.request('PATCH', `/wikis/CATEGORY/MoveB${round}?revisionid=${b}`, { token: admin, body: { parent: `MoveA${round}` } }),
      ]);
      expect(results.map((r) => `${r.status} ${r.status === 200 ? '' : r.text}`).sort()).toEqual(['200 ', expect.stringMatching(/^422 /)]);
    }
  });

  it('answers ids beyond 32 bits with 422 naming the field, for pages and guides alike', async () => {
    const page = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'WIKI', title: 'Big image', image: 2147483648 } });
    expect(page.status).toBe(422);
    expect(page.body.errors).toEqual([expect.objectContaining({ field: 'image' })]);
    // The largest id is read (and found to name no image: a 422 too, never a 500).
    const max = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'WIKI', title: 'Max image', image: 2147483647 } });
    expect([max.status, max.body.errors]).toEqual([422, [expect.objectContaining({ field: 'image', message: expect.stringContaining('2147483647 is not an image') })]]);
    for (const body of [{ image: 2147483648 }, { prerequisites: [2147483648] }]) {
      const guide = await api.request('POST', '/guides', { token: admin, body: { category: 'iPhone 12', type: 'repair', ...body } });
      expect(guide.status).toBe(422);
    }
    const guide = await api.request('POST', '/guides', { token: admin, body: { category: 'iPhone 12', type: 'repair' } });
    const step = await api.request('POST', `/guides/${guide.body.guideid}/steps`, {
      token: admin,
      body: { lines: [{ text: 'x', bullet: 'black', level: 0 }], media: { type: 'image', data: [2147483648] } },
    });
    expect(step.status).toBe(422);
  });
});
