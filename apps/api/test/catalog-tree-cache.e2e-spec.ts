import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';
import { type Tree, pathTo, isTransaction } from './support/category-tree.js';

/**
 * GET /categories answers from a tree cached per process, kept with the content stamp and checked
 * against the tree's version whenever the stamp moved: any change to a category (create, edit of its
 * display title, move, delete, revert) shows in the next read, and `requireGuides` follows the
 * guides as well.
 */
describe('catalog over HTTP: the cached category tree', () => {
  let api: TestApi;
  let admin = '';
  const statements: string[] = [];

  const get = async (query = '') => {
    const res = await api.request('GET', `/categories${query}`);
    expect(res.status).toBe(200);
    return res.body as Tree & { hierarchy: Tree; display_titles: Record<string, string> };
  };
  const write = async (method: string, path: string, body?: unknown, status = 200) => {
    const res = await api.request(method, path, { token: admin, body });
    if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body as { revisionid: number };
  };

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
  });
  afterAll(() => api.close());

  it('is invalidated by every change to a category: create, rename, move, delete, revert', async () => {
    // Warm every cached variant first.
    const before = await get();
    expect(pathTo(before, 'Cache Probe')).toBeNull();
    expect((await get('?withDisplayTitles')).display_titles['Cache Probe']).toBeUndefined();
    expect(await get()).toEqual(before);

    const created = await write('POST', '/wikis', { namespace: 'CATEGORY', title: 'Cache Probe', parent: 'Appliance' }, 201);
    expect(pathTo(await get(), 'Cache Probe')).toEqual(['Appliance', 'Cache Probe']);
    expect((await get('?withDisplayTitles')).display_titles['Cache Probe']).toBe('Cache Probe');

    // A rename of what clients show (titles themselves are fixed).
    const renamed = await write('PATCH', `/wikis/CATEGORY/Cache_Probe?revisionid=${created.revisionid}`, { display_title: 'Cache Probe (renamed)' });
    const withTitles = await get('?withDisplayTitles');
    expect(withTitles.display_titles['Cache Probe']).toBe('Cache Probe (renamed)');
    expect(pathTo(withTitles.hierarchy, 'Cache Probe')).toEqual(['Appliance', 'Cache Probe']);

    const moved = await write('PATCH', `/wikis/CATEGORY/Cache_Probe?revisionid=${renamed.revisionid}`, { parent: 'Phone' });
    expect(pathTo(await get(), 'Cache Probe')).toEqual(['Electronics', 'Phone', 'Cache Probe']);
    expect(pathTo((await get('?withDisplayTitles')).hierarchy, 'Cache Probe')).toEqual(['Electronics', 'Phone', 'Cache Probe']);

    // A revert restores the display title of the first revision (and keeps the page where it is).
    const reverted = await write('POST', `/wikis/CATEGORY/Cache_Probe/revert?revisionid=${moved.revisionid}&to_revisionid=${created.revisionid}`);
    const afterRevert = await get('?withDisplayTitles');
    expect(afterRevert.display_titles['Cache Probe']).toBe('Cache Probe');
    expect(pathTo(afterRevert.hierarchy, 'Cache Probe')).toEqual(['Electronics', 'Phone', 'Cache Probe']);

    await write('DELETE', `/wikis/CATEGORY/Cache_Probe?revisionid=${reverted.revisionid}`, undefined, 204);
    expect(await get()).toEqual(before);
    expect((await get('?withDisplayTitles')).display_titles['Cache Probe']).toBeUndefined();
  });

  it('sees an edit that commits late, with a revision id below the newest one (taken before it, committed after)', async () => {
    const before = await get();
    expect(pathTo(before, 'Coffee Maker')).toEqual(['Appliance', 'Coffee Maker']);
    const [row] = await api.sql<{ id: number; parent: number; low: number }>(
      `SELECT c.id, p.id AS parent, (SELECT min(revisionid) - 1 FROM wiki_pages) AS low
         FROM wiki_pages c, wiki_pages p WHERE c.namespace = 'CATEGORY' AND c.title = 'Coffee Maker' AND p.namespace = 'CATEGORY' AND p.title = 'Electronics'`,
    );
    // What a save commits (a new revision id, a new parent), as another instance would.
    await api.sql(`UPDATE wiki_pages SET parent_id = $1, revisionid = $2 WHERE id = $3`, [row!.parent, row!.low, row!.id]);
    expect(pathTo(await get(), 'Coffee Maker')).toEqual(['Electronics', 'Coffee Maker']);
  });

  it('answers a kept tree after one SQL statement (the content stamp), and a pretty one indented', async () => {
    await get();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seen = statements.length;
    const res = await api.request('GET', '/categories');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const own = statements.slice(seen).filter((sql) => !isTransaction(sql));
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(/content_stamp_base/);

    const pretty = await api.request('GET', '/categories?pretty');
    expect(pretty.text).toBe(JSON.stringify(res.body, null, 2));
    expect(res.text).toBe(JSON.stringify(res.body));
  });

  it('after a change elsewhere (the stamp moved, the tree did not), looks the tree\'s version up but not the tree', async () => {
    const before = await get();
    const [guide] = await api.sql<{ id: number; revisionid: number }>(`SELECT id, revisionid FROM guides WHERE deleted_at IS NULL ORDER BY id LIMIT 1`);
    await write('PATCH', `/guides/${guide!.id}?revisionid=${guide!.revisionid}`, { summary: 'A change the tree does not show.' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seen = statements.length;
    expect(await get()).toEqual(before);
    const own = statements.slice(seen).filter((sql) => !isTransaction(sql));
    expect(own).toHaveLength(2);
    expect(own[0]).toMatch(/content_stamp_base/);
    expect(own[1]).toMatch(/count\(\*\).*revisionid.*FROM wiki_pages/s);
  });

  it('requireGuides follows the guides: a category shows once a public guide is in it, and goes when it is deleted', async () => {
    await write('POST', '/wikis', { namespace: 'CATEGORY', title: 'Guide Probe', parent: 'Appliance' }, 201);
    expect(pathTo(await get('?requireGuides'), 'Guide Probe')).toBeNull();
    await write('POST', '/guides', { category: 'Guide Probe', type: 'repair', title: 'Probe Guide', public: true }, 201);
    expect(pathTo(await get('?requireGuides'), 'Guide Probe')).toEqual(['Appliance', 'Guide Probe']);
    const [guide] = await api.sql<{ id: number; revisionid: number }>(`SELECT id, revisionid FROM guides WHERE title = 'Probe Guide'`);
    await write('DELETE', `/guides/${guide!.id}?revisionid=${guide!.revisionid}`, undefined, 204);
    expect(pathTo(await get('?requireGuides'), 'Guide Probe')).toBeNull();
    expect(pathTo(await get(), 'Guide Probe')).toEqual(['Appliance', 'Guide Probe']);
  });
});
