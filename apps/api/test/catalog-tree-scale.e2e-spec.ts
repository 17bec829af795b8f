import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';
import { type Tree, isTransaction } from './support/category-tree.js';

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

/**
 * The tree costs the same few queries whatever its size: one (the content stamp) while nothing
 * changed, three (the stamp, the tree's version, then the tree) after a change to the tree; 1,000
 * more categories change nothing but the answer.
 */
describe('catalog over HTTP: the category tree at scale', () => {
  let api: TestApi;
  const statements: string[] = [];

  async function queriesOf(path: string): Promise<{ body: unknown; count: number }> {
    await settle(api, statements);
    const before = statements.length;
    const res = await api.request('GET', path);
    expect(res.status).toBe(200);
    return { body: res.body, count: statements.slice(before).filter((sql) => !isTransaction(sql)).length };
  }

  /** Inserts `count` categories in one statement: `count / 2` under `parent`, each other one under the one before. */
  async function insertCategories(prefix: string, count: number, parent: string): Promise<void> {
    await api.sql(
      `WITH parent AS (SELECT id FROM wiki_pages WHERE namespace = 'CATEGORY' AND title = $2 AND deleted_at IS NULL)
       INSERT INTO wiki_pages (id, namespace, title, display_title, parent_id, description, contents, flags, info, revisionid, langid, created_at, modified_at)
       SELECT nextval('wiki_pages_id_seq'), 'CATEGORY', $1 || ' ' || lpad(g::text, 4, '0'), $1 || ' ' || g, (SELECT id FROM parent), '', '', '{}', '[]', 1, 'en', now(), now()
       FROM generate_series(1, $3::int) AS g`,
      [prefix, parent, count],
    );
  }

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
  });
  afterAll(() => api.close());

  it('GET /categories: 1,000 extra categories cost the same queries', async () => {
    const small = await queriesOf('/categories');
    expect(small.count).toBeLessThanOrEqual(3);
    expect((await queriesOf('/categories')).count).toBe(1);

    await insertCategories('Bulk Category', 1000, 'Appliance');
    const live = (await api.sql<{ n: number }>(`SELECT count(*)::int AS n FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL`))[0]!.n;
    expect(live).toBe(1011);

    // Inserted straight into the table: the cached tree sees them through its version.
    const large = await queriesOf('/categories');
    expect(large.count).toBe(3);
    expect((await queriesOf('/categories')).count).toBe(1);
    const appliance = (large.body as Tree)['Appliance']!;
    expect(Object.keys(appliance)).toHaveLength(1001);
    expect(appliance['Bulk Category 0001']).toBeNull();
    expect(appliance['Bulk Category 1000']).toBeNull();
    expect(appliance['Coffee Maker']).toBeNull();
    // The rest of the tree is untouched.
    expect((large.body as Tree)['Electronics']).toEqual((small.body as Tree)['Electronics']);
  });

  it('withDisplayTitles (from the cached tree: the stamp and the version) and display=hierarchy (the version) stay as cheap with the large tree', async () => {
    const titles = await queriesOf('/categories?withDisplayTitles');
    expect(titles.count).toBe(2);
    expect((await queriesOf('/categories?withDisplayTitles')).count).toBe(1);
    const body = titles.body as { hierarchy: Tree; display_titles: Record<string, string> };
    expect(Object.keys(body.display_titles).length).toBeGreaterThanOrEqual(1011);
    expect(body.display_titles['Bulk Category 0042']).toBe('Bulk Category 42');

    const hierarchy = await queriesOf('/wikis/CATEGORY?display=hierarchy');
    expect(hierarchy.count).toBe(1);
    expect(hierarchy.body).toEqual(body.hierarchy);
  });

  it('a deep chain of categories nests correctly and costs the same queries', async () => {
    // A chain of 30 levels under Electronics, made with one statement per level.
    let parent = 'Electronics';
    for (let level = 1; level <= 30; level++) {
      await api.sql(
        `INSERT INTO wiki_pages (id, namespace, title, display_title, parent_id, description, contents, flags, info, revisionid, langid, created_at, modified_at)
         SELECT nextval('wiki_pages_id_seq'), 'CATEGORY', $1, $1, id, '', '', '{}', '[]', 1, 'en', now(), now() FROM wiki_pages WHERE namespace = 'CATEGORY' AND title = $2 AND deleted_at IS NULL`,
        [`Depth ${level}`, parent],
      );
      parent = `Depth ${level}`;
    }
    const { body, count } = await queriesOf('/categories');
    expect(count).toBe(3);
    expect((await queriesOf('/categories')).body).toEqual(body);
    let node: Tree | null = (body as Tree)['Electronics']!;
    for (let level = 1; level <= 30; level++) {
      expect(node).toHaveProperty([`Depth ${level}`]);
      node = node![`Depth ${level}`]!;
    }
    expect(node).toBeNull();
  });

  it('requireGuides leaves out the 1,000 categories without guides at the cost of one more query, whatever the tree size', async () => {
    const pruned = await queriesOf('/categories?requireGuides');
    expect(pruned.count).toBe(2);
    const tree = pruned.body as Tree;
    expect(Object.keys(tree['Appliance']!)).toEqual(['Coffee Maker']);
    expect(tree['Electronics']).not.toHaveProperty(['Depth 1']);
    expect(tree['Electronics']!['Phone']).toEqual({ iPhone: { 'iPhone 12': null } });
    // A guide at the bottom of the deep chain brings the whole chain back.
    const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const guide = await api.request('POST', '/guides', { token: admin, body: { category: 'Depth 30', type: 'repair', title: 'Deep Repair', public: true } });
    expect(guide.status).toBe(201);
    const again = await queriesOf('/categories?requireGuides');
    expect(again.count).toBe(2);
    let node: Tree | null = (again.body as Tree)['Electronics']!;
    for (let level = 1; level <= 30; level++) node = node![`Depth ${level}`]!;
    expect(node).toBeNull();
    expect(Object.keys((again.body as Tree)['Appliance']!)).toEqual(['Coffee Maker']);
  });
});
