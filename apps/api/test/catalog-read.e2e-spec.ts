import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';
import { anImage } from './support/images.js';

/** The keys of GET /categories/{name} (legacy shape, reference §3.9). */
const LEGACY_KEYS = [
  'ancestors',
  'categories',
  'children',
  'contents_raw',
  'contents_rendered',
  'description',
  'display_title',
  'flags',
  'guides',
  'image',
  'locale',
  'parts',
  'solutions',
  'title',
  'tools',
  'topic_info',
];

/** Keys every full wiki carries (reference §3.10). */
const WIKI_KEYS = [
  'wikiid',
  'namespace',
  'title',
  'display_title',
  'revisionid',
  'modified_date',
  'created_date',
  'langid',
  'url',
  'description',
  'contents_raw',
  'contents_rendered',
  'image',
  'author',
  'flags',
  'info',
  'tags',
  'linked_wikis',
  'related_wikis',
  'can_edit',
];

/** Keys only CATEGORY pages carry. */
const CATEGORY_KEYS = ['ancestors', 'parent', 'children', 'guides', 'featured_guides', 'category_lists', 'parts', 'tools', 'solutions_url'];

/** The keys of a WikiSummary list item (no revisionid in lists). */
const SUMMARY_KEYS = ['author', 'dataType', 'display_title', 'image', 'langid', 'modified_date', 'namespace', 'summary', 'text', 'title', 'url', 'wikiid'];

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

type Who = 'admin' | 'alice';

const titlesOf = (body: unknown) => (body as { title: string }[]).map((w) => w.title);

/** Reads of categories and wiki pages: shapes, titles in URLs, rendering, lists. */
describe('catalog over HTTP: reads', () => {
  let api: TestApi;
  const token: Record<Who, string> = { admin: '', alice: '' };

  const get = (path: string, who: Who | null = null) => api.request('GET', path, { token: who ? token[who] : undefined });

  const createWiki = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/wikis', { token: token.admin, body });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { revisionid: number; title: string; wikiid: number; [key: string]: unknown };
  };

  /** Live demo categories in the order the database sorts titles. */
  const orderedCategories = async () =>
    (await api.sql<{ title: string }>(`SELECT title FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL ORDER BY title, id`)).map((r) => r.title);

  beforeAll(async () => {
    api = await startTestApi();
    for (const who of ['admin', 'alice'] as const) token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
  });
  afterAll(() => api.close());

  describe('GET /categories/{name} (legacy shape)', () => {
    it('answers exactly the legacy keys for iPhone 12', async () => {
      const res = await get('/categories/iPhone%2012');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(LEGACY_KEYS);
      expect(res.body).toMatchObject({
        title: 'iPhone 12',
        display_title: 'iPhone 12',
        locale: 'en',
        topic_info: { name: 'iPhone 12' },
        description: 'The iPhone 12, released in October 2020. Model A2172.',
        flags: [],
        ancestors: ['iPhone', 'Phone', 'Electronics'],
        categories: ['Electronics', 'Phone', 'iPhone'],
        children: [],
        image: anImage(),
        solutions: { url: expect.any(String), count: 0 },
        parts: { url: expect.stringMatching(/\/Parts\/iPhone_12$/) },
      });
      // The parts and tools of the category's public guides (the battery replacement and its opening procedure).
      expect(res.body.parts.categories.map((p: { tag: string }) => p.tag)).toEqual(['Battery adhesive strips', 'iPhone 12 Battery']);
      expect((res.body.tools as { text: string }[]).map((t) => t.text)).toEqual(['iOpener', 'P2 Pentalobe Screwdriver', 'Spudger', 'Suction Handle', 'Tweezers']);
      for (const tool of res.body.tools) expect(tool).toEqual(expect.objectContaining({ text: expect.any(String), url: tool.url === null ? null : expect.any(String) }));
      expect(res.body.contents_raw).toContain("'''flat edges'''");
      expect(res.body.contents_rendered).toContain('<strong>flat edges</strong>');
    });

    it('lists the guides of the category', async () => {
      const res = await get('/categories/iPhone_12');
      expect(res.status).toBe(200);
      const titles = (res.body.guides as { title: string; dataType: string }[]).map((g) => g.title);
      expect(titles).toEqual(expect.arrayContaining(['iPhone 12 Opening Procedure', 'iPhone 12 Battery Replacement']));
      for (const guide of res.body.guides) expect(guide).toMatchObject({ dataType: 'guide', category: 'iPhone 12', guideid: expect.any(Number) });
    });

    it('lists the child categories of an inner category', async () => {
      const res = await get('/categories/Electronics');
      expect(res.status).toBe(200);
      expect([...res.body.children].sort()).toEqual(['Computer', 'Game Console', 'Phone']);
      expect(res.body.ancestors).toEqual([]);
      expect(res.body.guides).toEqual([]);
    });

    it('answers 404 to an unknown category (and to a non-category page title)', async () => {
      const res = await get('/categories/No%20Such%20Device');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      await createWiki({ namespace: 'WIKI', title: 'Only A Wiki Page' });
      expect((await get('/categories/Only_A_Wiki_Page')).status).toBe(404);
    });
  });

  describe('GET /wikis/{namespace}', () => {
    it('lists CATEGORY summaries ordered by title, dataType wiki, without revisionid', async () => {
      const res = await get('/wikis/CATEGORY?limit=200');
      expect(res.status).toBe(200);
      expect(titlesOf(res.body)).toEqual(await orderedCategories());
      expect(titlesOf(res.body)).toEqual(expect.arrayContaining(DEMO_TITLES));
      for (const item of res.body) {
        expect(Object.keys(item).sort()).toEqual(SUMMARY_KEYS);
        expect(item).toMatchObject({ dataType: 'wiki', namespace: 'CATEGORY', langid: 'en', wikiid: expect.any(Number) });
      }
      const iphone12 = res.body.find((w: { title: string }) => w.title === 'iPhone 12');
      expect(iphone12).toMatchObject({ summary: 'The iPhone 12, released in October 2020. Model A2172.', image: anImage() });
      expect(iphone12.url).toMatch(/\/Device\/iPhone_12$/);
    });

    it('pages with limit and offset (default limit 20)', async () => {
      const all = titlesOf((await get('/wikis/CATEGORY?limit=200')).body);
      expect(titlesOf((await get('/wikis/CATEGORY?limit=3&offset=4')).body)).toEqual(all.slice(4, 7));
      expect(titlesOf((await get('/wikis/CATEGORY?limit=1')).body)).toEqual(all.slice(0, 1));
      expect((await get('/wikis/CATEGORY')).body).toHaveLength(Math.min(20, all.length));
      expect((await get('/wikis/CATEGORY?offset=1000')).body).toEqual([]);
      expect((await get('/wikis/CATEGORY?limit=abc')).status).toBe(400);
      expect((await get('/wikis/CATEGORY?offset=-3')).status).toBe(400);
    });

    it('display=objects is the default', async () => {
      expect((await get('/wikis/CATEGORY?display=objects&limit=200')).body).toEqual((await get('/wikis/CATEGORY?limit=200')).body);
    });

    it('display=bogus is a 400', async () => {
      const res = await get('/wikis/CATEGORY?display=bogus');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: true, message: expect.stringContaining('display') });
    });

    it('accepts a lower-case namespace', async () => {
      const lower = await get('/wikis/category?limit=200');
      expect(lower.status).toBe(200);
      expect(lower.body).toEqual((await get('/wikis/CATEGORY?limit=200')).body);
      expect((await get('/wikis/category/iPhone_12')).body.title).toBe('iPhone 12');
    });

    it('answers 404 to an unknown namespace', async () => {
      for (const path of ['/wikis/NOPE', '/wikis/NOPE/iPhone_12', '/wikis/USERS']) {
        const res = await get(path);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: true });
      }
    });

    it('modifiedSince lists only pages changed since, newest first', async () => {
      const old = await createWiki({ namespace: 'WIKI', title: 'Modified Long Ago' });
      await api.sql(`UPDATE wiki_pages SET modified_at = now() - interval '2 days' WHERE id = $1`, [old.wikiid]);
      const since = Math.floor(Date.now() / 1000) - 3600;
      const first = await createWiki({ namespace: 'WIKI', title: 'Modified Recently A' });
      await api.sql(`UPDATE wiki_pages SET modified_at = now() - interval '10 minutes' WHERE id = $1`, [first.wikiid]);
      await createWiki({ namespace: 'WIKI', title: 'Modified Recently B' });

      const res = await get(`/wikis/WIKI?modifiedSince=${since}&limit=200`);
      expect(res.status).toBe(200);
      const titles = titlesOf(res.body);
      expect(titles).not.toContain('Modified Long Ago');
      expect(titles.indexOf('Modified Recently B')).toBeGreaterThanOrEqual(0);
      expect(titles.indexOf('Modified Recently B')).toBeLessThan(titles.indexOf('Modified Recently A'));
      const dates = (res.body as { modified_date: number }[]).map((w) => w.modified_date);
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      for (const date of dates) expect(date).toBeGreaterThanOrEqual(since);
      expect(titlesOf((await get('/wikis/WIKI?limit=200')).body)).toContain('Modified Long Ago');
      expect((await get(`/wikis/CATEGORY?modifiedSince=${Math.floor(Date.now() / 1000) + 3600}`)).body).toEqual([]);
      expect((await get('/wikis/WIKI?modifiedSince=yesterday')).status).toBe(400);
    });

    it('leaves deleted pages out', async () => {
      const page = await createWiki({ namespace: 'WIKI', title: 'Listed Then Deleted' });
      expect(titlesOf((await get('/wikis/WIKI?limit=200')).body)).toContain('Listed Then Deleted');
      expect((await api.request('DELETE', `/wikis/WIKI/Listed_Then_Deleted?revisionid=${page.revisionid}`, { token: token.admin })).status).toBe(204);
      expect(titlesOf((await get('/wikis/WIKI?limit=200')).body)).not.toContain('Listed Then Deleted');
    });
  });

  describe('GET /wikis/{namespace}/{title}', () => {
    it('answers the full CATEGORY page of iPhone 12', async () => {
      const res = await get('/wikis/CATEGORY/iPhone_12');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(expect.arrayContaining([...WIKI_KEYS, ...CATEGORY_KEYS]));
      expect(res.body).toMatchObject({
        wikiid: expect.any(Number),
        namespace: 'CATEGORY',
        title: 'iPhone 12',
        display_title: 'iPhone 12',
        revisionid: expect.any(Number),
        langid: 'en',
        description: 'The iPhone 12, released in October 2020. Model A2172.',
        image: anImage(),
        tags: [],
        related_wikis: [],
        children: [],
        parent: 'iPhone',
        info: [
          { name: 'Released', value: 'October 23, 2020' },
          { name: 'Model numbers', value: 'A2172, A2402, A2403, A2404' },
        ],
        parts: {
          url: expect.stringMatching(/\/Parts\/iPhone_12$/),
          categories: [
            { tag: 'Battery adhesive strips', count: 1, text: 'Battery adhesive strips', type: '', quantity: 2, notes: null, url: '', thumbnail: '', isoptional: false, featured: false },
            {
              tag: 'iPhone 12 Battery',
              count: 1,
              text: 'iPhone 12 Battery',
              type: 'Part Only',
              quantity: 1,
              notes: null,
              url: 'https://example.com/parts/iphone-12-battery',
              thumbnail: '',
              isoptional: false,
              featured: false,
            },
          ],
        },
        category_lists: {},
      });
      expect(res.body.tools[1]).toEqual({
        title: 'P2 Pentalobe Screwdriver',
        target_url: 'https://example.com/tools/p2',
        image_url: null,
        itemcode: null,
        text: 'P2 Pentalobe Screwdriver',
        type: '',
        quantity: 1,
        notes: null,
        url: 'https://example.com/tools/p2',
        thumbnail: '',
        isoptional: false,
        featured: false,
        count: 1,
      });
      expect(res.body.tools[0]).toMatchObject({ title: 'iOpener', isoptional: true });
      // Demo pages are written by the Admin.
      expect(res.body.authors).toEqual([expect.objectContaining({ userid: res.body.author, username: expect.any(String), percent: 100, profile_url: expect.any(String) })]);
      expect(res.body.revisionid).toBeGreaterThan(0);
      expect(res.body.url).toMatch(/\/Device\/iPhone_12$/);
    });

    it('lists ancestors closest first', async () => {
      const res = await get('/wikis/CATEGORY/iPhone_12');
      expect(titlesOf(res.body.ancestors)).toEqual(['iPhone', 'Phone', 'Electronics']);
      for (const a of res.body.ancestors) expect(a).toMatchObject({ dataType: 'wiki', namespace: 'CATEGORY' });
      expect((await get('/wikis/CATEGORY/Electronics')).body.ancestors).toEqual([]);
      expect((await get('/wikis/CATEGORY/Electronics')).body.parent).toBeNull();
    });

    it('lists children as summaries', async () => {
      const res = await get('/wikis/CATEGORY/Electronics');
      expect(titlesOf(res.body.children).sort()).toEqual(['Computer', 'Game Console', 'Phone']);
      for (const c of res.body.children) expect(Object.keys(c).sort()).toEqual(SUMMARY_KEYS);
    });

    it('lists the guides of the category, and featured_guides as a list', async () => {
      const res = await get('/wikis/CATEGORY/iPhone_12');
      expect(titlesOf(res.body.guides)).toEqual(expect.arrayContaining(['iPhone 12 Opening Procedure', 'iPhone 12 Battery Replacement']));
      expect(Array.isArray(res.body.featured_guides)).toBe(true);
      // Coffee Maker Descaling is starred in the demo data.
      const coffee = await get('/wikis/CATEGORY/Coffee_Maker');
      expect(titlesOf(coffee.body.featured_guides)).toContain('Coffee Maker Descaling');
    });

    it('can_edit is true for an Admin, false for alice and anonymous', async () => {
      expect((await get('/wikis/CATEGORY/iPhone_12', 'admin')).body.can_edit).toBe(true);
      expect((await get('/wikis/CATEGORY/iPhone_12', 'alice')).body.can_edit).toBe(false);
      expect((await get('/wikis/CATEGORY/iPhone_12')).body.can_edit).toBe(false);
    });

    it('reads the title URL-decoded, with underscores as spaces', async () => {
      const byUnderscore = await get('/wikis/CATEGORY/iPhone_12');
      const bySpace = await get('/wikis/CATEGORY/iPhone%2012');
      expect(byUnderscore.status).toBe(200);
      expect(bySpace.status).toBe(200);
      expect(bySpace.body).toEqual(byUnderscore.body);
      const mac = await get(`/wikis/CATEGORY/${encodeURIComponent('MacBook Pro 13" 2020')}`);
      expect(mac.status).toBe(200);
      expect(mac.body.title).toBe('MacBook Pro 13" 2020');
      expect((await get('/wikis/CATEGORY/MacBook_Pro_13%22_2020')).body.wikiid).toBe(mac.body.wikiid);
    });

    it('finds a title with dots', async () => {
      const created = await createWiki({ namespace: 'WIKI', title: 'v1.2.3 Notes', contents: 'Release notes.' });
      const res = await get('/wikis/WIKI/v1.2.3_Notes');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ wikiid: created.wikiid, title: 'v1.2.3 Notes', namespace: 'WIKI' });
      expect(res.body.url).toMatch(/\/Wiki\/v1\.2\.3_Notes$/);
    });

    it('a WIKI page carries no category-only keys', async () => {
      await createWiki({ namespace: 'WIKI', title: 'Plain Wiki Page', contents: 'Text.' });
      const res = await get('/wikis/WIKI/Plain_Wiki_Page');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(expect.arrayContaining(WIKI_KEYS));
      for (const key of ['ancestors', 'children', 'guides', 'featured_guides']) expect(res.body).not.toHaveProperty([key]);
    });

    it('renders the markup to HTML (headings, bold, lists)', async () => {
      const res = await get('/wikis/CATEGORY/iPhone_12');
      expect(res.body.contents_raw).toContain('== Identification ==');
      expect(res.body.contents_rendered).toContain('<h2');
      expect(res.body.contents_rendered).toContain('Identification</h2>');
      expect(res.body.contents_rendered).toContain('<strong>flat edges</strong>');
      expect(res.body.contents_rendered).toContain('<li>');
      expect(res.body.contents_rendered).not.toContain("'''");
    });

    it('renders HTML in the contents escaped (safe HTML)', async () => {
      await createWiki({ namespace: 'WIKI', title: 'Script Page', contents: "<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n[link|javascript:alert(3)|click]\n\n'''<b>bold</b>'''" });
      const res = await get('/wikis/WIKI/Script_Page');
      expect(res.status).toBe(200);
      expect(res.body.contents_raw).toContain('<script>alert(1)</script>');
      const html: string = res.body.contents_rendered;
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img/i);
      expect(html).not.toMatch(/href="javascript:/i);
      expect(html).toContain('<strong>&lt;b&gt;bold&lt;/b&gt;</strong>');
    });

    it('answers 404 to an unknown title, a bad title and a deleted page', async () => {
      for (const path of ['/wikis/CATEGORY/No_Such_Device', '/wikis/WIKI/iPhone_12', '/wikis/CATEGORY/a%7Cb', '/wikis/CATEGORY/_']) {
        const res = await get(path);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      }
      const page = await createWiki({ namespace: 'WIKI', title: 'Soon Gone' });
      expect((await get('/wikis/WIKI/Soon_Gone')).status).toBe(200);
      expect((await api.request('DELETE', `/wikis/WIKI/Soon_Gone?revisionid=${page.revisionid}`, { token: token.admin })).status).toBe(204);
      expect((await get('/wikis/WIKI/Soon_Gone')).status).toBe(404);
      expect((await get(`/wikis/WIKI/Soon_Gone?revisionid=${page.revisionid}`)).status).toBe(404);
      expect((await get('/wikis/WIKI/Soon_Gone/tags')).status).toBe(404);
    });

    it('?revisionid=<old> answers the old contents', async () => {
      const created = await createWiki({ namespace: 'CATEGORY', title: 'Versioned Device', parent: 'Appliance', contents: "First '''version'''." });
      const edited = await api.request('PATCH', `/wikis/CATEGORY/Versioned_Device?revisionid=${created.revisionid}`, { token: token.admin, body: { contents: 'Second version.' } });
      expect(edited.status).toBe(200);
      expect(edited.body.revisionid).toBeGreaterThan(created.revisionid);

      const old = await get(`/wikis/CATEGORY/Versioned_Device?revisionid=${created.revisionid}`);
      expect(old.status).toBe(200);
      expect(old.body).toMatchObject({ revisionid: created.revisionid, contents_raw: "First '''version'''.", title: 'Versioned Device' });
      expect(old.body.contents_rendered).toContain('<strong>version</strong>');
      const current = await get(`/wikis/CATEGORY/Versioned_Device?revisionid=${edited.body.revisionid}`);
      expect(current.body).toMatchObject({ revisionid: edited.body.revisionid, contents_raw: 'Second version.' });
      expect((await get('/wikis/CATEGORY/Versioned_Device')).body.contents_raw).toBe('Second version.');
    });

    it('?revisionid of another page is a 404, a malformed one a 400', async () => {
      const other = await createWiki({ namespace: 'WIKI', title: 'Revision Owner' });
      expect((await get(`/wikis/CATEGORY/iPhone_12?revisionid=${other.revisionid}`)).status).toBe(404);
      expect((await get('/wikis/CATEGORY/iPhone_12?revisionid=abc')).status).toBe(400);
      expect((await get('/wikis/CATEGORY/iPhone_12?revisionid=0')).status).toBe(400);
    });
  });

  describe('GET /wikis/{namespace}/{title}/tags', () => {
    it('answers [] for an untagged page and 404 for an unknown one', async () => {
      const res = await get('/wikis/CATEGORY/iPhone_12/tags');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect((await get('/wikis/CATEGORY/Nothing_Here/tags')).status).toBe(404);
    });
  });
});
