import { DEMO_ACCOUNTS, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { type Tree, pathTo, isTransaction } from './support/category-tree.js';

type Who = 'admin' | 'alice' | 'bob';

/** The keys of a UserSummary (reference §3.2) as authors carry them, with §3.10's percent, profile_url and avatar_url. */
const AUTHOR_KEYS = ['avatar_url', 'image', 'join_date', 'percent', 'profile_url', 'reputation', 'teams', 'unique_username', 'url', 'userid', 'username'];

const titlesOf = (list: unknown) => (list as { title: string }[]).map((w) => w.title);

/**
 * The fields of a category or wiki page that come from elsewhere: a category's parts and tools
 * (from its guides), related pages, authors (from the revisions, as user summaries), and the
 * `requireGuides` tree.
 */
describe('catalog over HTTP: parts, tools, related pages, authors and requireGuides', () => {
  let api: TestApi;
  const token: Record<Who, string> = { admin: '', alice: '', bob: '' };
  const userid: Record<Who, number> = { admin: 0, alice: 0, bob: 0 };
  const statements: string[] = [];

  const get = (path: string, who: Who | null = null) => api.request('GET', path, { token: who ? token[who] : undefined });

  /**
   * Waits until the server is quiet: the guide events written by earlier requests are delivered
   * (other contexts react to them in the background, with SQL of their own) and no statement has
   * run for a while, so what `counted` sees is the request's own SQL.
   */
  async function settle(): Promise<void> {
    for (let tries = 0; tries < 50; tries++) {
      const seen = statements.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [pending] = await api.sql<{ n: number }>(`SELECT count(*)::int AS n FROM guide_events_outbox WHERE delivered_at IS NULL`);
      if (pending!.n === 0 && statements.length === seen) return;
    }
    throw new Error('the server did not settle');
  }

  /** Runs a GET and returns the response with the non-transaction SQL statements it ran. */
  async function counted(path: string): Promise<{ res: ApiResponse; queries: string[] }> {
    await settle();
    const before = statements.length;
    const res = await get(path);
    return { res, queries: statements.slice(before).filter((sql) => !isTransaction(sql)) };
  }

  async function ok(res: Promise<ApiResponse>, status = 200): Promise<ApiResponse> {
    const done = await res;
    if (done.status !== status) throw new Error(`expected ${status}, got ${done.status}: ${done.text}`);
    return done;
  }

  const createWiki = (body: Record<string, unknown>, who: Who = 'admin') => ok(api.request('POST', '/wikis', { token: token[who], body }), 201);
  const patchWiki = async (ns: string, title: string, body: Record<string, unknown>, who: Who = 'admin') => {
    const current = await ok(get(`/wikis/${ns}/${encodeURIComponent(title)}`));
    return api.request('PATCH', `/wikis/${ns}/${encodeURIComponent(title)}?revisionid=${current.body.revisionid}`, { token: token[who], body });
  };
  const deleteWiki = async (ns: string, title: string) => {
    const current = await ok(get(`/wikis/${ns}/${encodeURIComponent(title)}`));
    await ok(api.request('DELETE', `/wikis/${ns}/${encodeURIComponent(title)}?revisionid=${current.body.revisionid}`, { token: token.admin }), 204);
  };
  const createGuide = async (body: Record<string, unknown>, who: Who = 'alice') =>
    (await ok(api.request('POST', '/guides', { token: token[who], body: { type: 'repair', ...body } }), 201)).body as { guideid: number; revisionid: number };
  const deleteGuide = async (guideid: number, who: Who = 'alice') => {
    const current = await ok(get(`/guides/${guideid}`, who));
    await ok(api.request('DELETE', `/guides/${guideid}?revisionid=${current.body.revisionid}`, { token: token[who] }), 204);
  };
  const tree = async (query = ''): Promise<Tree> => (await ok(get(`/categories${query}`))).body;

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    // Bob edits pages too in these tests: make him an Admin before he logs in.
    await api.sql(`UPDATE users SET role = 'Admin' WHERE email = $1`, [DEMO_ACCOUNTS.bob.email]);
    for (const who of ['admin', 'alice', 'bob'] as const) {
      token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
      userid[who] = (await ok(get('/user', who))).body.userid;
    }
  });
  afterAll(() => api.close());

  describe('parts and tools of a category', () => {
    beforeAll(async () => {
      await createWiki({ namespace: 'CATEGORY', title: 'Merge Lab', parent: 'Appliance' });
      await createWiki({ namespace: 'CATEGORY', title: 'Merge Lab Sibling', parent: 'Appliance' });
      // Guide ids increase in this order: the first spelling of a name wins.
      await createGuide({
        category: 'Merge Lab',
        title: 'Lab First',
        public: true,
        parts: [{ name: 'Heating Element', quantity: 1 }, { name: 'Gasket', type: '', quantity: 2, notes: 'Only for model A.' }],
        tools: [{ name: 'Torx T10 Screwdriver', isoptional: true }, { name: 'Spudger', isoptional: true }],
      });
      await createGuide({
        category: 'Merge Lab',
        title: 'Lab Second',
        public: true,
        parts: [{ name: 'gasket', type: 'Silicone', quantity: 4, url: 'https://example.com/gasket' }, { name: 'Fuse' }],
        tools: [{ name: '  torx   t10 screwdriver ', url: 'https://example.com/t10', featured: true }, { name: 'Spudger', isoptional: true }],
      });
      await createGuide({ category: 'Merge Lab', title: 'Lab Third', public: true, parts: [{ name: 'GASKET', type: 'Rubber', quantity: 3, url: 'https://example.com/other' }] });
      // Never listed: a private guide, a deleted one, and a guide of another category.
      await createGuide({ category: 'Merge Lab', title: 'Lab Private', parts: [{ name: 'Secret Part' }], tools: [{ name: 'Secret Tool' }] });
      const deleted = await createGuide({ category: 'Merge Lab', title: 'Lab Deleted', public: true, parts: [{ name: 'Deleted Part' }] });
      await deleteGuide(deleted.guideid);
      await createGuide({ category: 'Merge Lab Sibling', title: 'Lab Elsewhere', public: true, parts: [{ name: 'Gasket', quantity: 9 }], tools: [{ name: 'Sibling Tool' }] });
    });

    it('lists each part once, merged by name, most-used first, in the parts object', async () => {
      const res = await ok(get('/wikis/CATEGORY/Merge_Lab'));
      expect(res.body.parts.url).toMatch(/\/Parts\/Merge_Lab$/);
      expect(res.body.parts.categories).toEqual([
        // In three guides: the first spelling, the first non-empty type and URL, the largest quantity.
        { tag: 'Gasket', count: 3, text: 'Gasket', type: 'Silicone', quantity: 4, notes: null, url: 'https://example.com/gasket', thumbnail: '', isoptional: false, featured: false },
        { tag: 'Fuse', count: 1, text: 'Fuse', type: '', quantity: 1, notes: null, url: '', thumbnail: '', isoptional: false, featured: false },
        { tag: 'Heating Element', count: 1, text: 'Heating Element', type: '', quantity: 1, notes: null, url: '', thumbnail: '', isoptional: false, featured: false },
      ]);
    });

    it('lists each tool once with the reference tool keys; optional only when optional in every guide, featured when featured in any', async () => {
      const res = await ok(get('/wikis/CATEGORY/Merge_Lab'));
      expect(res.body.tools).toEqual([
        {
          title: 'Spudger',
          target_url: null,
          image_url: null,
          itemcode: null,
          text: 'Spudger',
          type: '',
          quantity: 1,
          notes: null,
          url: '',
          thumbnail: '',
          isoptional: true,
          featured: false,
          count: 2,
        },
        {
          title: 'Torx T10 Screwdriver',
          target_url: 'https://example.com/t10',
          image_url: null,
          itemcode: null,
          text: 'Torx T10 Screwdriver',
          type: '',
          quantity: 1,
          notes: null,
          url: 'https://example.com/t10',
          thumbnail: '',
          isoptional: false,
          featured: true,
          count: 2,
        },
      ]);
    });

    it('gives the legacy category the same parts object and tool items', async () => {
      const [full, legacy] = [await ok(get('/wikis/CATEGORY/Merge_Lab')), await ok(get('/categories/Merge_Lab'))];
      expect(legacy.body.parts).toEqual(full.body.parts);
      expect(legacy.body.tools).toEqual(full.body.tools);
      for (const tool of legacy.body.tools) expect(tool).toEqual(expect.objectContaining({ text: expect.any(String), url: tool.target_url ?? '' }));
    });

    it('follows guide changes at once: a guide made private, then deleted, drops out', async () => {
      const guide = await createGuide({ category: 'Merge Lab Sibling', title: 'Lab Transient', public: true, tools: [{ name: 'Transient Tool' }] });
      expect(titlesOf((await get('/wikis/CATEGORY/Merge_Lab_Sibling')).body.tools)).toEqual(['Sibling Tool', 'Transient Tool']);
      const current = await ok(get(`/guides/${guide.guideid}`, 'alice'));
      await ok(api.request('DELETE', `/guides/${guide.guideid}/public?revisionid=${current.body.revisionid}`, { token: token.alice }));
      expect(titlesOf((await get('/wikis/CATEGORY/Merge_Lab_Sibling')).body.tools)).toEqual(['Sibling Tool']);
      await deleteGuide(guide.guideid);
      expect(titlesOf((await get('/wikis/CATEGORY/Merge_Lab_Sibling')).body.tools)).toEqual(['Sibling Tool']);
    });

    it('answers empty lists for a category without guides, and no parts or tools on other namespaces', async () => {
      const res = await ok(get('/wikis/CATEGORY/Appliance'));
      expect(res.body.parts).toEqual({ url: expect.any(String), categories: [] });
      expect(res.body.tools).toEqual([]);
      await createWiki({ namespace: 'WIKI', title: 'Merge Lab' });
      const wiki = await ok(get('/wikis/WIKI/Merge_Lab'));
      expect(wiki.body).not.toHaveProperty('parts');
      expect(wiki.body).not.toHaveProperty('tools');
    });
  });

  describe('related pages', () => {
    beforeAll(async () => {
      await createWiki({ namespace: 'WIKI', title: 'Battery Safety', description: 'Handle batteries with care.' });
      await createWiki({ namespace: 'WIKI', title: 'Adhesives' });
      await createWiki({ namespace: 'ITEM', title: 'Spudger' });
    });

    it('are written as titles or {namespace, title} and read as WikiSummaries, in the order given', async () => {
      const created = await createWiki({
        namespace: 'WIKI',
        title: 'Related Hub',
        related: ['Battery_Safety', { namespace: 'CATEGORY', title: 'iPhone 12' }, { namespace: 'item', title: 'Spudger' }],
      });
      expect(created.body.related_wikis.map((w: { namespace: string; title: string }) => `${w.namespace}:${w.title}`)).toEqual(['WIKI:Battery Safety', 'CATEGORY:iPhone 12', 'ITEM:Spudger']);
      const read = await ok(get('/wikis/WIKI/Related_Hub'));
      expect(read.body.related_wikis).toEqual(created.body.related_wikis);
      expect(read.body.related_wikis[0]).toMatchObject({ dataType: 'wiki', wikiid: expect.any(Number), display_title: 'Battery Safety', summary: 'Handle batteries with care.', url: expect.stringMatching(/\/Wiki\/Battery_Safety$/) });
      expect(read.body.related_wikis[1].url).toMatch(/\/Device\/iPhone_12$/);
    });

    it('work on categories too', async () => {
      const res = await patchWiki('CATEGORY', 'Coffee Maker', { related: ['Appliance', { namespace: 'WIKI', title: 'Adhesives' }] });
      expect(res.status).toBe(200);
      expect(titlesOf(res.body.related_wikis)).toEqual(['Appliance', 'Adhesives']);
      expect(titlesOf((await get('/categories/Coffee_Maker')).body.guides)).toContain('Coffee Maker Descaling');
    });

    it('refuse pages that do not exist, the page itself and malformed lists (422, naming the field)', async () => {
      const missing = await api.request('POST', '/wikis', { token: token.admin, body: { namespace: 'WIKI', title: 'Broken Links', related: ['Battery Safety', 'Nowhere', { namespace: 'CATEGORY', title: 'Battery Safety' }] } });
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual([
        { field: 'related', message: "no WIKI page 'Nowhere'", index: 1 },
        { field: 'related', message: "no CATEGORY page 'Battery Safety'", index: 2 },
      ]);
      expect((await get('/wikis/WIKI/Broken_Links')).status).toBe(404);
      for (const related of ['Battery Safety', [42], [{ namespace: 'USER', title: 'x' }], [{ title: 'x', url: 'y' }], Array.from({ length: 51 }, (_, i) => `P${i}`), ['Related Hub']]) {
        const res = await patchWiki('WIKI', 'Related Hub', { related });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ error: true, errors: [expect.objectContaining({ field: 'related' })] });
      }
    });

    it('are kept per revision: an edit replaces them, a no-op keeps the revision, an old revision shows its own', async () => {
      const created = await createWiki({ namespace: 'WIKI', title: 'Versioned Links', related: ['Adhesives'] });
      const same = await ok(api.request('PATCH', `/wikis/WIKI/Versioned_Links?revisionid=${created.body.revisionid}`, { token: token.admin, body: { related: [{ namespace: 'WIKI', title: 'Adhesives' }] } }));
      expect(same.body.revisionid).toBe(created.body.revisionid);
      const changed = await ok(api.request('PATCH', `/wikis/WIKI/Versioned_Links?revisionid=${created.body.revisionid}`, { token: token.admin, body: { related: ['Battery Safety'] } }));
      expect(changed.body.revisionid).toBeGreaterThan(created.body.revisionid);
      expect(titlesOf(changed.body.related_wikis)).toEqual(['Battery Safety']);
      expect(titlesOf((await get(`/wikis/WIKI/Versioned_Links?revisionid=${created.body.revisionid}`)).body.related_wikis)).toEqual(['Adhesives']);
      const cleared = await ok(api.request('PATCH', `/wikis/WIKI/Versioned_Links?revisionid=${changed.body.revisionid}`, { token: token.admin, body: { related: null } }));
      expect(cleared.body.related_wikis).toEqual([]);
      const reverted = await ok(api.request('POST', `/wikis/WIKI/Versioned_Links/revert?revisionid=${cleared.body.revisionid}&to_revisionid=${created.body.revisionid}`, { token: token.admin }));
      expect(titlesOf(reverted.body.related_wikis)).toEqual(['Adhesives']);
    });

    it('leave out a related page once deleted, and show it again when a page of that title comes back', async () => {
      await createWiki({ namespace: 'WIKI', title: 'Comes And Goes' });
      await createWiki({ namespace: 'WIKI', title: 'Points At It', related: ['Comes And Goes', 'Adhesives'] });
      await deleteWiki('WIKI', 'Comes And Goes');
      expect(titlesOf((await get('/wikis/WIKI/Points_At_It')).body.related_wikis)).toEqual(['Adhesives']);
      // Other edits of the page still pass, though it names a page that is gone.
      expect((await patchWiki('WIKI', 'Points At It', { contents: 'Still here.' })).status).toBe(200);
      await createWiki({ namespace: 'WIKI', title: 'Comes And Goes', description: 'Back again.' });
      expect((await get('/wikis/WIKI/Points_At_It')).body.related_wikis.map((w: { title: string; summary: string }) => [w.title, w.summary])).toEqual([
        ['Comes And Goes', 'Back again.'],
        ['Adhesives', ''],
      ]);
    });

    it('cannot be written by a non-Admin (403)', async () => {
      const res = await api.request('POST', '/wikis', { token: token.alice, body: { namespace: 'WIKI', title: 'Not Allowed', related: ['Adhesives'] } });
      expect(res.status).toBe(403);
    });
  });

  describe('authors', () => {
    it('are the distinct editors of the revisions, the creator first, as UserSummaries with their share', async () => {
      const created = await createWiki({ namespace: 'INFO', title: 'Team Effort', contents: 'one' });
      expect(created.body.authors).toHaveLength(1);
      expect(Object.keys(created.body.authors[0]).sort()).toEqual(AUTHOR_KEYS);
      expect(created.body.authors[0]).toMatchObject({ userid: userid.admin, percent: 100, url: expect.stringContaining(`/User/${userid.admin}/`), avatar_url: null });
      expect(created.body.authors[0].profile_url).toBe(created.body.authors[0].url);

      await ok(patchWiki('INFO', 'Team Effort', { contents: 'two' }, 'bob'));
      await ok(patchWiki('INFO', 'Team Effort', { contents: 'three' }, 'bob'));
      await ok(patchWiki('INFO', 'Team Effort', { contents: 'four' }, 'bob'));
      const res = await ok(get('/wikis/INFO/Team_Effort'));
      expect(res.body.author).toBe(userid.admin);
      expect(res.body.authors.map((a: { userid: number; username: string; percent: number }) => [a.userid, a.username, a.percent])).toEqual([
        [userid.admin, created.body.authors[0].username, 25],
        [userid.bob, expect.any(String), 75],
      ]);
      // A no-op edit adds no revision and no share.
      await ok(patchWiki('INFO', 'Team Effort', { contents: 'four' }, 'admin'));
      expect((await get('/wikis/INFO/Team_Effort')).body.authors.map((a: { percent: number }) => a.percent)).toEqual([25, 75]);
      // An old revision lists the authors it had.
      expect((await get(`/wikis/INFO/Team_Effort?revisionid=${created.body.revisionid}`)).body.authors.map((a: { userid: number }) => a.userid)).toEqual([userid.admin]);
    });

    it('show an editor whose account is gone as a deleted user', async () => {
      await createWiki({ namespace: 'INFO', title: 'Orphaned Edits' });
      await ok(patchWiki('INFO', 'Orphaned Edits', { contents: 'by bob' }, 'bob'));
      await api.sql(`UPDATE wiki_revisions SET editor_id = 987654 WHERE editor_id = $1 AND wiki_id = (SELECT id FROM wiki_pages WHERE title = 'Orphaned Edits')`, [userid.bob]);
      const res = await ok(get('/wikis/INFO/Orphaned_Edits'));
      expect(res.body.authors[1]).toMatchObject({ userid: 987654, username: 'Deleted user', percent: 50 });
    });

    it('are shown on category pages, and the demo pages name their Admin creator', async () => {
      const res = await ok(get('/wikis/CATEGORY/iPhone_12'));
      expect(res.body.authors).toEqual([expect.objectContaining({ userid: userid.admin, percent: 100 })]);
    });
  });

  describe('a page read runs a constant number of queries', () => {
    it('whatever the number of related pages, contributors, guides, parts and tools', async () => {
      await createWiki({ namespace: 'CATEGORY', title: 'Query Count Lab', parent: 'Appliance', related: ['Appliance'] });
      await createGuide({ category: 'Query Count Lab', title: 'Counted First', public: true, parts: [{ name: 'Only Part' }] });
      const small = await counted('/wikis/CATEGORY/Query_Count_Lab');
      expect(small.res.status).toBe(200);
      for (let i = 0; i < 12; i++) await createWiki({ namespace: 'ITEM', title: `Query Count Item ${i}` });
      await ok(patchWiki('CATEGORY', 'Query Count Lab', { related: Array.from({ length: 12 }, (_, i) => ({ namespace: 'ITEM', title: `Query Count Item ${i}` })) }, 'bob'));
      for (let i = 0; i < 6; i++) {
        await createGuide({ category: 'Query Count Lab', title: `Counted ${i}`, public: true, parts: [{ name: `Part ${i}` }], tools: [{ name: `Tool ${i}` }] }, i % 2 ? 'alice' : 'bob');
      }
      const large = await counted('/wikis/CATEGORY/Query_Count_Lab');
      expect(large.res.body.related_wikis).toHaveLength(12);
      expect(large.res.body.authors).toHaveLength(2);
      expect(large.res.body.guides).toHaveLength(7);
      expect(large.res.body.tools).toHaveLength(6);
      expect(large.res.body.parts.categories).toHaveLength(7);
      // The same statements (run in parallel, so in any order), whatever the sizes.
      expect(large.queries.map(shape).sort()).toEqual(small.queries.map(shape).sort());
    });
  });

  describe('GET /categories?requireGuides', () => {
    it('keeps the demo tree, where every leaf holds a public guide', async () => {
      const full = await tree();
      const pruned = await tree('?requireGuides');
      for (const title of ['iPhone 12', 'Nintendo Switch', 'MacBook Pro 13" 2020', 'Coffee Maker']) expect(pathTo(pruned, title)).toEqual(pathTo(full, title));
    });

    it('leaves out categories with no public guide in their subtree, and keeps every ancestor of one that has', async () => {
      await createWiki({ namespace: 'CATEGORY', title: 'Empty Branch', parent: 'Electronics' });
      await createWiki({ namespace: 'CATEGORY', title: 'Empty Leaf', parent: 'Empty Branch' });
      await createWiki({ namespace: 'CATEGORY', title: 'Draft Only', parent: 'Empty Branch' });
      await createWiki({ namespace: 'CATEGORY', title: 'Deep Leaf', parent: 'Empty Leaf' });
      const draft = await createGuide({ category: 'Draft Only', title: 'Unpublished' });
      const full = await tree();
      expect(pathTo(full, 'Deep Leaf')).toEqual(['Electronics', 'Empty Branch', 'Empty Leaf', 'Deep Leaf']);

      for (const query of ['?requireGuides', '?requireGuides=1', '?requireGuides=true']) {
        const pruned = await tree(query);
        for (const title of ['Empty Branch', 'Empty Leaf', 'Draft Only', 'Deep Leaf']) expect(pathTo(pruned, title)).toBeNull();
        expect(pathTo(pruned, 'iPhone 12')).toEqual(['Electronics', 'Phone', 'iPhone', 'iPhone 12']);
      }
      for (const query of ['?requireGuides=0', '?requireGuides=false', '']) expect(await tree(query)).toEqual(full);

      // A public guide deep down brings back its whole chain of ancestors, and only that.
      const deep = await createGuide({ category: 'Deep Leaf', title: 'Deep Guide', public: true });
      const withDeep = await tree('?requireGuides');
      expect(pathTo(withDeep, 'Deep Leaf')).toEqual(['Electronics', 'Empty Branch', 'Empty Leaf', 'Deep Leaf']);
      expect(pathTo(withDeep, 'Draft Only')).toBeNull();
      expect(withDeep['Electronics']!['Empty Branch']).toEqual({ 'Empty Leaf': { 'Deep Leaf': null } });

      // Publishing the draft brings its category; deleting the deep guide removes the deep chain.
      const current = await ok(get(`/guides/${draft.guideid}`, 'alice'));
      await ok(api.request('PUT', `/guides/${draft.guideid}/public?revisionid=${current.body.revisionid}`, { token: token.alice }));
      await deleteGuide(deep.guideid);
      const after = await tree('?requireGuides');
      expect(after['Electronics']!['Empty Branch']).toEqual({ 'Draft Only': null });
    });

    it('filters display_titles along with the hierarchy', async () => {
      await createWiki({ namespace: 'CATEGORY', title: 'Unused Gadget', display_title: 'Unused Gadget (shown)', parent: 'Appliance' });
      const res = await ok(get('/categories?requireGuides&withDisplayTitles'));
      expect(Object.keys(res.body).sort()).toEqual(['display_titles', 'hierarchy']);
      expect(res.body.display_titles).not.toHaveProperty(['Unused Gadget']);
      expect(pathTo(res.body.hierarchy, 'Unused Gadget')).toBeNull();
      expect(Object.keys(res.body.display_titles).sort()).toEqual(collectTitles(res.body.hierarchy).sort());
      expect((await ok(get('/categories?withDisplayTitles'))).body.display_titles['Unused Gadget']).toBe('Unused Gadget (shown)');
    });

    it('runs two queries: the tree and the categories holding guides', async () => {
      const { res, queries } = await counted('/categories?requireGuides');
      expect(res.status).toBe(200);
      expect(queries).toHaveLength(2);
      expect(queries.some((sql) => /wiki_pages/.test(sql))).toBe(true);
      expect(queries.some((sql) => /FROM guides/.test(sql))).toBe(true);
    });
  });
});

/** A statement without its literals, to compare the statements of two requests. */
function shape(sql: string): string {
  return sql
    .replace(/\s*\[took [^\]]*\]\s*$/, '')
    .replace(/'[^']*'/g, "'?'")
    .replace(/\b\d+\b/g, 'N')
    .replace(/\s+/g, ' ')
    .replace(/ in \(\?(, \?)*\)/gi, ' in (?)')
    .trim();
}

function collectTitles(tree: Tree | null): string[] {
  return tree ? Object.entries(tree).flatMap(([title, sub]) => [title, ...collectTitles(sub)]) : [];
}
