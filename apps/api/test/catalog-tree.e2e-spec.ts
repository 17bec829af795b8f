import { DEMO_ACCOUNTS, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { type Tree, pathTo, isTransaction } from './support/category-tree.js';

/** The demo category tree (libs/demo/data/src/demo-data.ts). */
const DEMO_TREE: Tree = {
  Electronics: {
    Phone: { iPhone: { 'iPhone 12': null } },
    Computer: { 'Mac Laptop': { 'MacBook Pro 13" 2020': null } },
    'Game Console': { 'Nintendo Switch': null },
  },
  Appliance: { 'Coffee Maker': null },
};

const DEMO_TITLES = [
  'Appliance',
  'Coffee Maker',
  'Computer',
  'Electronics',
  'Game Console',
  'Mac Laptop',
  'MacBook Pro 13" 2020',
  'Nintendo Switch',
  'Phone',
  'iPhone',
  'iPhone 12',
];

const DEMO_LEAVES = ['Coffee Maker', 'MacBook Pro 13" 2020', 'Nintendo Switch', 'iPhone 12'];

/**
 * Waits until the server is quiet: guide events from the demo data and earlier requests are
 * delivered (other contexts react to them in the background, with SQL of their own) and no
 * statement has run for a while, so a count sees the request's own SQL only.
 */
async function settle(api: TestApi, statements: readonly string[]): Promise<void> {
  for (let tries = 0; tries < 50; tries++) {
    const seen = statements.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [pending] = await api.sql<{ n: number }>(`SELECT count(*)::int AS n FROM guide_events_outbox WHERE delivered_at IS NULL`);
    if (pending!.n === 0 && statements.length === seen) return;
  }
  throw new Error('the server did not settle');
}

/** GET /categories and friends: the tree as a nested title map, built from one query, never stale. */
describe('catalog over HTTP: the category tree', () => {
  let api: TestApi;
  let admin = '';
  const statements: string[] = [];

  /** Runs an anonymous GET and returns the response with the non-transaction SQL it ran. */
  async function counted(path: string): Promise<{ res: ApiResponse; queries: string[] }> {
    await settle(api, statements);
    const before = statements.length;
    const res = await api.request('GET', path);
    return { res, queries: statements.slice(before).filter((sql) => !isTransaction(sql)) };
  }

  const tree = async (): Promise<Tree> => {
    const res = await api.request('GET', '/categories');
    expect(res.status).toBe(200);
    return res.body as Tree;
  };

  const createCategory = async (title: string, parent: string | null) => {
    const res = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'CATEGORY', title, parent } });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { revisionid: number; title: string };
  };

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
  });
  afterAll(() => api.close());

  describe('GET /categories', () => {
    it('answers the demo tree as a nested object keyed by title, leaves null', async () => {
      const res = await api.request('GET', '/categories');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.body).toEqual(DEMO_TREE);
      expect(res.body['Electronics']['Phone']['iPhone']['iPhone 12']).toBeNull();
      expect(res.body['Appliance']['Coffee Maker']).toBeNull();
    });

    it('withDisplayTitles answers {hierarchy, display_titles}', async () => {
      const res = await api.request('GET', '/categories?withDisplayTitles');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['display_titles', 'hierarchy']);
      expect(res.body.hierarchy).toEqual(DEMO_TREE);
      expect(Object.keys(res.body.display_titles).sort()).toEqual([...DEMO_TITLES].sort());
      expect(res.body.display_titles['iPhone 12']).toBe('iPhone 12');
      // A presence flag: any value turns it on.
      expect((await api.request('GET', '/categories?withDisplayTitles=1')).body.hierarchy).toEqual(DEMO_TREE);
    });

    it('display_titles carries a display title that differs from the title', async () => {
      const created = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'CATEGORY', title: 'Display Test', display_title: 'Display Test (shown)', parent: 'Appliance' } });
      expect(created.status).toBe(201);
      const res = await api.request('GET', '/categories?withDisplayTitles');
      expect(res.body.display_titles['Display Test']).toBe('Display Test (shown)');
      expect(res.body.hierarchy['Appliance']).toHaveProperty(['Display Test'], null);
      expect((await api.request('DELETE', `/wikis/CATEGORY/Display_Test?revisionid=${created.body.revisionid}`, { token: admin })).status).toBe(204);
      expect(await tree()).toEqual(DEMO_TREE);
    });

    it('accepts requireGuides and includeStubs (200, the tree)', async () => {
      for (const query of ['requireGuides', 'requireGuides=true', 'includeStubs', 'includeStubs=1', 'requireGuides&includeStubs']) {
        const res = await api.request('GET', `/categories?${query}`);
        expect(res.status).toBe(200);
        expect(pathTo(res.body, 'iPhone 12')).toEqual(['Electronics', 'Phone', 'iPhone', 'iPhone 12']);
      }
    });

    it('is answered after one SQL query (kept with the content stamp; the tree checked against its version when the stamp moved, loaded again only when it changed)', async () => {
      const { res, queries } = await counted('/categories');
      expect(res.status).toBe(200);
      expect(queries).toHaveLength(1);
      expect(queries[0]).toMatch(/content_stamp_base/);
      // Kept before the last change: the stamp, then the tree's version (the tree itself is cached).
      const withTitles = await counted('/categories?withDisplayTitles');
      expect(withTitles.res.status).toBe(200);
      expect(withTitles.queries).toHaveLength(2);
      expect(withTitles.queries[1]).toMatch(/FROM wiki_pages/);
      expect((await counted('/categories?withDisplayTitles')).queries).toHaveLength(1);
    });

    it('reflects a category created, moved and deleted through the API at once (no stale cache)', async () => {
      expect(await tree()).toEqual(DEMO_TREE);

      const created = await createCategory('Fresh Kettle', 'Appliance');
      expect(pathTo(await tree(), 'Fresh Kettle')).toEqual(['Appliance', 'Fresh Kettle']);

      const moved = await api.request('PATCH', `/wikis/CATEGORY/Fresh_Kettle?revisionid=${created.revisionid}`, { token: admin, body: { parent: 'Coffee Maker' } });
      expect(moved.status).toBe(200);
      const afterMove = await tree();
      expect(pathTo(afterMove, 'Fresh Kettle')).toEqual(['Appliance', 'Coffee Maker', 'Fresh Kettle']);
      expect(pathTo(afterMove, 'Coffee Maker')).toEqual(['Appliance', 'Coffee Maker']);

      const toRoot = await api.request('PATCH', `/wikis/CATEGORY/Fresh_Kettle?revisionid=${moved.body.revisionid}`, { token: admin, body: { parent: null } });
      expect(toRoot.status).toBe(200);
      expect(pathTo(await tree(), 'Fresh Kettle')).toEqual(['Fresh Kettle']);

      const deleted = await api.request('DELETE', `/wikis/CATEGORY/Fresh_Kettle?revisionid=${toRoot.body.revisionid}`, { token: admin });
      expect(deleted.status).toBe(204);
      expect(pathTo(await tree(), 'Fresh Kettle')).toBeNull();
      expect(await tree()).toEqual(DEMO_TREE);
    });
  });

  describe('GET /wikis/CATEGORY?display=hierarchy', () => {
    it('answers the same nested tree as GET /categories', async () => {
      const res = await api.request('GET', '/wikis/CATEGORY?display=hierarchy');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(DEMO_TREE);
    });

    it('ignores paging and also runs one query', async () => {
      const { res, queries } = await counted('/wikis/CATEGORY?display=hierarchy&limit=1&offset=5');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(DEMO_TREE);
      expect(queries).toHaveLength(1);
    });

    it('is for the CATEGORY namespace only (400 elsewhere)', async () => {
      const res = await api.request('GET', '/wikis/WIKI?display=hierarchy');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
    });
  });

  describe('GET /wikis/CATEGORY?display=leaves', () => {
    it('lists only the categories without children', async () => {
      const res = await api.request('GET', '/wikis/CATEGORY?display=leaves&limit=200');
      expect(res.status).toBe(200);
      expect((res.body as { title: string }[]).map((w) => w.title).sort()).toEqual([...DEMO_LEAVES].sort());
      for (const item of res.body) expect(item.dataType).toBe('wiki');
    });

    it('a new child turns its parent into a non-leaf at once', async () => {
      const created = await createCategory('Leaf Probe', 'Coffee Maker');
      const titles = (await api.request('GET', '/wikis/CATEGORY?display=leaves&limit=200')).body.map((w: { title: string }) => w.title);
      expect(titles).toContain('Leaf Probe');
      expect(titles).not.toContain('Coffee Maker');
      expect((await api.request('DELETE', `/wikis/CATEGORY/Leaf_Probe?revisionid=${created.revisionid}`, { token: admin })).status).toBe(204);
      const again = (await api.request('GET', '/wikis/CATEGORY?display=leaves&limit=200')).body.map((w: { title: string }) => w.title);
      expect(again).toContain('Coffee Maker');
      expect(again).not.toContain('Leaf Probe');
    });
  });

  describe('GET /categories/all', () => {
    it('answers every live category title, flat, in title order', async () => {
      const res = await api.request('GET', '/categories/all');
      expect(res.status).toBe(200);
      const ordered = (await api.sql<{ title: string }>(`SELECT title FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL ORDER BY title, id`)).map((r) => r.title);
      expect(res.body).toEqual(ordered);
      expect([...res.body].sort()).toEqual([...DEMO_TITLES].sort());
      for (const title of res.body) expect(typeof title).toBe('string');
    });

    it('pages with limit and offset', async () => {
      const all = (await api.request('GET', '/categories/all?limit=200')).body as string[];
      const page = await api.request('GET', '/categories/all?limit=3&offset=2');
      expect(page.status).toBe(200);
      expect(page.body).toEqual(all.slice(2, 5));
      expect((await api.request('GET', '/categories/all?limit=2')).body).toEqual(all.slice(0, 2));
      expect((await api.request('GET', `/categories/all?offset=${all.length}`)).body).toEqual([]);
    });

    it('answers 400 to a malformed limit or offset', async () => {
      for (const query of ['limit=abc', 'limit=-1', 'offset=abc', 'offset=1.5']) {
        const res = await api.request('GET', `/categories/all?${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      }
    });

    it('leaves out deleted categories', async () => {
      const created = await createCategory('Short Lived', null);
      expect((await api.request('GET', '/categories/all?limit=200')).body).toContain('Short Lived');
      expect((await api.request('DELETE', `/wikis/CATEGORY/Short_Lived?revisionid=${created.revisionid}`, { token: admin })).status).toBe(204);
      expect((await api.request('GET', '/categories/all?limit=200')).body).not.toContain('Short Lived');
    });
  });
});
