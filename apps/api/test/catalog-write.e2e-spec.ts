import { DEMO_ACCOUNTS, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { type Tree, pathTo } from './support/category-tree.js';
import { anImage, uploadImage } from './support/images.js';

type Who = 'admin' | 'alice';

/** The `field`s listed by a 422 body. */
const fieldsOf = (res: ApiResponse) => [...new Set(((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field))];

const url = (title: string) => encodeURIComponent(title.replace(/ /g, '_'));

/** Writes of wiki pages (Admin only): create, edit, move, delete, revert, tags. */
describe('catalog over HTTP: writes', () => {
  let api: TestApi;
  const token: Record<Who, string> = { admin: '', alice: '' };
  let serial = 0;

  const post = (who: Who | null, body: unknown) => api.request('POST', '/wikis', { token: who ? token[who] : undefined, body });
  const get = (ns: string, title: string, who: Who | null = 'admin', query = '') => api.request('GET', `/wikis/${ns}/${url(title)}${query}`, { token: who ? token[who] : undefined });
  const patch = (ns: string, title: string, revisionid: number | string | null, body: unknown, who: Who | null = 'admin') =>
    api.request('PATCH', `/wikis/${ns}/${url(title)}${revisionid === null ? '' : `?revisionid=${revisionid}`}`, { token: who ? token[who] : undefined, body });
  const remove = (ns: string, title: string, revisionid: number | string | null, who: Who | null = 'admin') =>
    api.request('DELETE', `/wikis/${ns}/${url(title)}${revisionid === null ? '' : `?revisionid=${revisionid}`}`, { token: who ? token[who] : undefined });
  const revert = (ns: string, title: string, query: string, who: Who | null = 'admin') =>
    api.request('POST', `/wikis/${ns}/${url(title)}/revert${query}`, { token: who ? token[who] : undefined });
  const tree = async () => (await api.request('GET', '/categories')).body as Tree;

  /** Creates a page as the Admin (201 expected); the title is unique unless given. */
  const newPage = async (namespace: string, fields: Record<string, unknown> = {}) => {
    serial += 1;
    const res = await post('admin', { namespace, title: `${namespace.toLowerCase()} test page ${serial}`, ...fields });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { wikiid: number; revisionid: number; title: string; [key: string]: unknown };
  };

  const stored = async (id: number) =>
    (await api.sql<{ revisionid: number; contents: string; deleted_at: Date | null; parent_id: number | null }>('SELECT revisionid, contents, deleted_at, parent_id FROM wiki_pages WHERE id = $1', [id]))[0]!;
  const revisionRows = async (id: number) => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM wiki_revisions WHERE wiki_id = $1', [id]))[0]!.n;
  const pageCount = async () => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM wiki_pages'))[0]!.n;

  beforeAll(async () => {
    api = await startTestApi();
    for (const who of ['admin', 'alice'] as const) token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
  });
  afterAll(() => api.close());

  describe('POST /wikis', () => {
    it('lets an Admin create a WIKI page: 201, the full page, as GET answers it', async () => {
      const res = await post('admin', { namespace: 'WIKI', title: 'Soldering Basics', contents: "Use '''flux'''.", description: 'How to solder.', info: [{ name: 'Level', value: 'Beginner' }] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        wikiid: expect.any(Number),
        namespace: 'WIKI',
        title: 'Soldering Basics',
        display_title: 'Soldering Basics',
        description: 'How to solder.',
        contents_raw: "Use '''flux'''.",
        contents_rendered: expect.stringContaining('<strong>flux</strong>'),
        info: [{ name: 'Level', value: 'Beginner' }],
        can_edit: true,
        tags: [],
        image: null,
      });
      expect(res.body.revisionid).toBeGreaterThan(0);
      expect(await stored(res.body.wikiid)).toMatchObject({ revisionid: res.body.revisionid, contents: "Use '''flux'''.", deleted_at: null });
      expect(await revisionRows(res.body.wikiid)).toBe(1);
      expect((await get('WIKI', 'Soldering Basics')).body).toEqual(res.body);
    });

    it('lets an Admin create a CATEGORY page under a parent', async () => {
      const image = await uploadImage(api, token.admin);
      const res = await post('admin', { namespace: 'CATEGORY', title: 'iPhone 13', parent: 'iPhone', display_title: 'Apple iPhone 13', image: image.id });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ namespace: 'CATEGORY', title: 'iPhone 13', display_title: 'Apple iPhone 13', parent: 'iPhone', image: anImage(image.id), children: [], guides: [] });
      expect(res.body.ancestors.map((a: { title: string }) => a.title)).toEqual(['iPhone', 'Phone', 'Electronics']);
      expect(pathTo(await tree(), 'iPhone 13')).toEqual(['Electronics', 'Phone', 'iPhone', 'iPhone 13']);
      expect((await get('CATEGORY', 'iPhone')).body.children.map((c: { title: string }) => c.title)).toEqual(expect.arrayContaining(['iPhone 12', 'iPhone 13']));
    });

    it('creates a root category with no parent (or parent null)', async () => {
      const a = await post('admin', { namespace: 'CATEGORY', title: 'Root Category A' });
      const b = await post('admin', { namespace: 'CATEGORY', title: 'Root Category B', parent: null });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.parent).toBeNull();
      const t = await tree();
      expect(t['Root Category A']).toBeNull();
      expect(t['Root Category B']).toBeNull();
    });

    it('normalises the title: underscores and runs of spaces become one space', async () => {
      const res = await post('admin', { namespace: 'WIKI', title: '  Under_score   Title ' });
      expect(res.status).toBe(201);
      expect(res.body.title).toBe('Under score Title');
      expect((await get('WIKI', 'Under score Title')).status).toBe(200);
    });

    it('answers alice with 403 and requiredPrivileges ["Admin"], and creates nothing', async () => {
      const before = await pageCount();
      const res = await post('alice', { namespace: 'WIKI', title: 'Alice Page' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: true, message: expect.any(String), requiredPrivileges: ['Admin'] });
      expect(await pageCount()).toBe(before);
      expect((await get('WIKI', 'Alice Page')).status).toBe(404);
    });

    it('answers 401 without a token', async () => {
      const res = await post(null, { namespace: 'WIKI', title: 'Anonymous Page' });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      expect(res.body.requiredPrivileges).toBeUndefined();
      expect((await get('WIKI', 'Anonymous Page')).status).toBe(404);
    });

    it('refuses a title already used in the namespace (422), however it is spelled', async () => {
      const page = await newPage('WIKI');
      const before = await pageCount();
      for (const title of [page.title, page.title.replace(/ /g, '_'), ` ${page.title}  `]) {
        const res = await post('admin', { namespace: 'WIKI', title });
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toEqual(['title']);
      }
      const category = await post('admin', { namespace: 'CATEGORY', title: 'iPhone 12' });
      expect(category.status).toBe(422);
      expect(await pageCount()).toBe(before);
    });

    it('allows the same title in another namespace', async () => {
      const res = await post('admin', { namespace: 'WIKI', title: 'iPhone 12' });
      expect(res.status).toBe(201);
      expect(res.body.namespace).toBe('WIKI');
      expect((await get('WIKI', 'iPhone 12')).body.wikiid).toBe(res.body.wikiid);
      expect((await get('CATEGORY', 'iPhone 12')).body.wikiid).not.toBe(res.body.wikiid);
      const info = await post('admin', { namespace: 'INFO', title: 'iPhone 12' });
      expect(info.status).toBe(201);
    });

    it('refuses an unknown field (422 naming it), including contents_raw', async () => {
      for (const field of ['bogus', 'contents_raw', 'wikiid', 'revisionid']) {
        const res = await post('admin', { namespace: 'WIKI', title: `With ${field}`, [field]: 'x' });
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toContain(field);
        expect((await get('WIKI', `With ${field}`)).status).toBe(404);
      }
    });

    it('refuses a bad or missing namespace (422)', async () => {
      for (const namespace of ['NOPE', 'USERS', 'wiki', '', 7, undefined]) {
        const res = await post('admin', { namespace, title: 'Namespace Probe' });
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toContain('namespace');
      }
    });

    it('refuses a bad title (422): slash, empty, forbidden characters, too long, not a string', async () => {
      for (const title of ['a/b', '', '   ', '___', 'what?', 'hash#tag', '100%', 'a<b>', 'x[y]', 'x{y}', 'a|b', 'back\\slash', 'x'.repeat(256), 42, null, undefined]) {
        const res = await post('admin', { namespace: 'WIKI', title });
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toContain('title');
      }
      expect((await post('admin', { namespace: 'WIKI', title: 'x'.repeat(255) })).status).toBe(201);
    });

    it('refuses an unknown or deleted parent (422)', async () => {
      const res = await post('admin', { namespace: 'CATEGORY', title: 'Orphan Device', parent: 'No Such Category' });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['parent']);
      // A WIKI page title is not a category.
      await newPage('WIKI', { title: 'Not A Category' });
      expect((await post('admin', { namespace: 'CATEGORY', title: 'Orphan Device', parent: 'Not A Category' })).status).toBe(422);
      const gone = await newPage('CATEGORY');
      expect((await remove('CATEGORY', gone.title, gone.revisionid)).status).toBe(204);
      expect((await post('admin', { namespace: 'CATEGORY', title: 'Orphan Device', parent: gone.title })).status).toBe(422);
      expect((await get('CATEGORY', 'Orphan Device')).status).toBe(404);
    });

    it('refuses a parent on a WIKI page (422)', async () => {
      const res = await post('admin', { namespace: 'WIKI', title: 'Wiki With Parent', parent: 'Electronics' });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['parent']);
    });

    it('refuses bad field values (422 naming them)', async () => {
      const cases: Array<[string, unknown]> = [
        ['contents', 42],
        ['description', { a: 1 }],
        ['display_title', 'x'.repeat(256)],
        ['image', -1],
        ['image', 'abc'],
        ['flags', 'FLAG'],
        ['flags', ['lower case']],
        ['info', [{ name: 'n' }]],
        ['info', [{ name: 'n', value: 'v', extra: 1 }]],
        ['info', Array.from({ length: 51 }, () => ({ name: 'n', value: 'v' }))],
      ];
      for (const [field, value] of cases) {
        const res = await post('admin', { namespace: 'WIKI', title: 'Bad Value Page', [field]: value });
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toEqual([field]);
      }
      expect((await get('WIKI', 'Bad Value Page')).status).toBe(404);
    });

    it('refuses a body that is not an object', async () => {
      for (const body of ['[1,2]', '"text"']) {
        const res = await post('admin', body);
        expect([400, 422]).toContain(res.status);
        expect(res.body).toMatchObject({ error: true });
      }
      expect((await post('admin', '{"namespace":')).status).toBe(400);
    });
  });

  describe('PATCH /wikis/{ns}/{title}?revisionid=N', () => {
    it('edits by the write name `contents`: 200, a new larger revisionid, rendered', async () => {
      const page = await newPage('WIKI', { contents: 'Old text.' });
      const res = await patch('WIKI', page.title, page.revisionid, { contents: "New '''text'''." });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ wikiid: page.wikiid, contents_raw: "New '''text'''.", contents_rendered: expect.stringContaining('<strong>text</strong>') });
      expect(res.body.revisionid).toBeGreaterThan(page.revisionid);
      expect(await stored(page.wikiid)).toMatchObject({ revisionid: res.body.revisionid, contents: "New '''text'''." });
      expect(await revisionRows(page.wikiid)).toBe(2);
      expect((await get('WIKI', page.title)).body).toEqual(res.body);
    });

    it('refuses the read name contents_raw (422 unknown field) and changes nothing', async () => {
      const page = await newPage('WIKI', { contents: 'Kept.' });
      const res = await patch('WIKI', page.title, page.revisionid, { contents_raw: 'Changed.' });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['contents_raw']);
      expect(await stored(page.wikiid)).toMatchObject({ revisionid: page.revisionid, contents: 'Kept.' });
    });

    it('a no-op keeps the revisionid (same values, or an empty body)', async () => {
      const page = await newPage('CATEGORY', { contents: 'Same.', parent: 'Appliance', description: 'D' });
      for (const body of [{ contents: 'Same.' }, {}, { parent: 'Appliance', description: 'D' }]) {
        const res = await patch('CATEGORY', page.title, page.revisionid, body);
        expect(res.status).toBe(200);
        expect(res.body.revisionid).toBe(page.revisionid);
      }
      expect(await revisionRows(page.wikiid)).toBe(1);
      expect((await stored(page.wikiid)).revisionid).toBe(page.revisionid);
    });

    it('each change gives a new, larger revisionid', async () => {
      const page = await newPage('WIKI');
      let revisionid = page.revisionid;
      for (const body of [{ contents: 'one' }, { description: 'two' }, { display_title: 'Three' }, { flags: ['WIKI_STUB'] }]) {
        const res = await patch('WIKI', page.title, revisionid, body);
        expect(res.status).toBe(200);
        expect(res.body.revisionid).toBeGreaterThan(revisionid);
        revisionid = res.body.revisionid;
      }
      const final = (await get('WIKI', page.title)).body;
      expect(final).toMatchObject({ revisionid, contents_raw: 'one', description: 'two', display_title: 'Three', flags: { WIKI_STUB: { flagid: 'WIKI_STUB' } } });
    });

    it('answers 422 when revisionid is missing or malformed', async () => {
      const page = await newPage('WIKI', { contents: 'Before.' });
      for (const revisionid of [null, 'abc', '0', '-1']) {
        const res = await patch('WIKI', page.title, revisionid, { contents: 'After.' });
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toEqual(['revisionid']);
      }
      expect((await stored(page.wikiid)).contents).toBe('Before.');
    });

    it('answers a stale revisionid with 409 whose body is the current page (as GET answers the same viewer)', async () => {
      const page = await newPage('CATEGORY', { parent: 'Phone', contents: 'v1' });
      const edited = await patch('CATEGORY', page.title, page.revisionid, { contents: 'v2' });
      expect(edited.status).toBe(200);
      const stale = await patch('CATEGORY', page.title, page.revisionid, { contents: 'v3' });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toBeUndefined();
      expect(stale.body).toEqual((await get('CATEGORY', page.title, 'admin')).body);
      expect(stale.body).toMatchObject({ revisionid: edited.body.revisionid, contents_raw: 'v2', can_edit: true });
      expect((await stored(page.wikiid)).contents).toBe('v2');
    });

    it('20 concurrent PATCHes with the same revisionid: exactly one 200, nineteen 409', async () => {
      const page = await newPage('WIKI', { contents: 'start' });
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => patch('WIKI', page.title, page.revisionid, { contents: `writer ${i}` })));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      const winner = results.find((r) => r.status === 200)!;
      const row = await stored(page.wikiid);
      expect(row).toMatchObject({ revisionid: winner.body.revisionid, contents: winner.body.contents_raw });
      expect(await revisionRows(page.wikiid)).toBe(2);
      for (const loser of results.filter((r) => r.status === 409)) expect(loser.body.wikiid).toBe(page.wikiid);
    });

    it('refuses to move a category under itself or its own descendant (422)', async () => {
      const top = await newPage('CATEGORY', { parent: 'Appliance' });
      const mid = await newPage('CATEGORY', { parent: top.title });
      const low = await newPage('CATEGORY', { parent: mid.title });
      for (const parent of [top.title, mid.title, low.title]) {
        const res = await patch('CATEGORY', top.title, top.revisionid, { parent });
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toEqual(['parent']);
      }
      expect((await stored(top.wikiid)).revisionid).toBe(top.revisionid);
      expect(pathTo(await tree(), low.title)).toEqual(['Appliance', top.title, mid.title, low.title]);
    });

    it('moves a category (with its subtree) under another category; GET /categories shows the new place', async () => {
      const moving = await newPage('CATEGORY', { parent: 'Appliance' });
      const child = await newPage('CATEGORY', { parent: moving.title });
      const res = await patch('CATEGORY', moving.title, moving.revisionid, { parent: 'Game Console' });
      expect(res.status).toBe(200);
      expect(res.body.revisionid).toBeGreaterThan(moving.revisionid);
      expect(res.body.parent).toBe('Game Console');
      expect(res.body.ancestors.map((a: { title: string }) => a.title)).toEqual(['Game Console', 'Electronics']);
      const t = await tree();
      expect(pathTo(t, moving.title)).toEqual(['Electronics', 'Game Console', moving.title]);
      expect(pathTo(t, child.title)).toEqual(['Electronics', 'Game Console', moving.title, child.title]);
      expect(Object.keys(t['Appliance']!)).not.toContain(moving.title);
      const childPage = await get('CATEGORY', child.title);
      expect(childPage.body.ancestors.map((a: { title: string }) => a.title)).toEqual([moving.title, 'Game Console', 'Electronics']);
      expect((await api.request('GET', `/categories/${url(child.title)}`)).body.categories).toEqual(['Electronics', 'Game Console', moving.title]);
    });

    it('refuses a move under an unknown category (422)', async () => {
      const page = await newPage('CATEGORY', { parent: 'Appliance' });
      const res = await patch('CATEGORY', page.title, page.revisionid, { parent: 'Nowhere Land' });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['parent']);
    });

    it('refuses `parent` on a WIKI page (422)', async () => {
      const page = await newPage('WIKI');
      for (const parent of ['Electronics', null]) {
        const res = await patch('WIKI', page.title, page.revisionid, { parent });
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toEqual(['parent']);
      }
      expect((await stored(page.wikiid)).revisionid).toBe(page.revisionid);
    });

    it('answers alice with 403, no token with 401, an unknown page with 404', async () => {
      const page = await newPage('WIKI', { contents: 'Admin text.' });
      const alice = await patch('WIKI', page.title, page.revisionid, { contents: 'Alice text.' }, 'alice');
      expect(alice.status).toBe(403);
      expect(alice.body).toMatchObject({ error: true, requiredPrivileges: ['Admin'] });
      expect((await patch('WIKI', page.title, page.revisionid, { contents: 'Anon text.' }, null)).status).toBe(401);
      expect((await stored(page.wikiid)).contents).toBe('Admin text.');
      expect((await patch('WIKI', 'No Such Page At All', 1, { contents: 'x' })).status).toBe(404);
    });
  });

  describe('DELETE /wikis/{ns}/{title}?revisionid=N', () => {
    it('refuses to delete a category with children (422)', async () => {
      const parent = await newPage('CATEGORY', { parent: 'Appliance' });
      await newPage('CATEGORY', { parent: parent.title });
      const res = await remove('CATEGORY', parent.title, parent.revisionid);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: true, errors: expect.any(Array) });
      expect((await get('CATEGORY', parent.title)).status).toBe(200);
      expect((await remove('CATEGORY', 'Electronics', (await get('CATEGORY', 'Electronics')).body.revisionid)).status).toBe(422);
    });

    it('deletes a leaf: 204, then 404, gone from /categories and the lists', async () => {
      const leaf = await newPage('CATEGORY', { parent: 'Coffee Maker' });
      expect(pathTo(await tree(), leaf.title)).toEqual(['Appliance', 'Coffee Maker', leaf.title]);
      const res = await remove('CATEGORY', leaf.title, leaf.revisionid);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get('CATEGORY', leaf.title)).status).toBe(404);
      expect((await api.request('GET', `/categories/${url(leaf.title)}`)).status).toBe(404);
      expect(pathTo(await tree(), leaf.title)).toBeNull();
      expect((await tree())['Appliance']!['Coffee Maker']).toBeNull();
      const listed = (await api.request('GET', '/wikis/CATEGORY?limit=200')).body.map((w: { title: string }) => w.title);
      expect(listed).not.toContain(leaf.title);
      expect((await stored(leaf.wikiid)).deleted_at).not.toBeNull();
      // Deleting it again: it is not there any more.
      expect((await remove('CATEGORY', leaf.title, leaf.revisionid)).status).toBe(404);
    });

    it('a category whose last child is deleted can then be deleted', async () => {
      const parent = await newPage('CATEGORY', { parent: 'Appliance' });
      const child = await newPage('CATEGORY', { parent: parent.title });
      expect((await remove('CATEGORY', parent.title, parent.revisionid)).status).toBe(422);
      expect((await remove('CATEGORY', child.title, child.revisionid)).status).toBe(204);
      expect((await remove('CATEGORY', parent.title, parent.revisionid)).status).toBe(204);
    });

    it('answers a stale revisionid with 409 (body: the current page) and keeps the page', async () => {
      const page = await newPage('WIKI', { contents: 'a' });
      const edited = await patch('WIKI', page.title, page.revisionid, { contents: 'b' });
      const res = await remove('WIKI', page.title, page.revisionid);
      expect(res.status).toBe(409);
      expect(res.body).toEqual((await get('WIKI', page.title)).body);
      expect(res.body.revisionid).toBe(edited.body.revisionid);
      expect((await get('WIKI', page.title)).status).toBe(200);
    });

    it('answers 422 without revisionid, 403 to alice, 401 without a token', async () => {
      const page = await newPage('WIKI');
      expect((await remove('WIKI', page.title, null)).status).toBe(422);
      const alice = await remove('WIKI', page.title, page.revisionid, 'alice');
      expect(alice.status).toBe(403);
      expect(alice.body.requiredPrivileges).toEqual(['Admin']);
      expect((await remove('WIKI', page.title, page.revisionid, null)).status).toBe(401);
      expect((await get('WIKI', page.title)).status).toBe(200);
    });

    it('a new page can then be created with the same title', async () => {
      const first = await newPage('CATEGORY', { parent: 'Appliance', contents: 'first life' });
      expect((await remove('CATEGORY', first.title, first.revisionid)).status).toBe(204);
      const again = await post('admin', { namespace: 'CATEGORY', title: first.title, parent: 'Phone', contents: 'second life' });
      expect(again.status).toBe(201);
      expect(again.body.wikiid).not.toBe(first.wikiid);
      const res = await get('CATEGORY', first.title);
      expect(res.body).toMatchObject({ wikiid: again.body.wikiid, contents_raw: 'second life', parent: 'Phone' });
      expect(pathTo(await tree(), first.title)).toEqual(['Electronics', 'Phone', first.title]);
      // The old page's revisions do not belong to the new one.
      expect((await get('CATEGORY', first.title, null, `?revisionid=${first.revisionid}`)).status).toBe(404);
    });
  });

  describe('POST /wikis/{ns}/{title}/revert', () => {
    it('restores the old contents as a new, larger revision', async () => {
      const page = await newPage('WIKI', { contents: 'Original text.', description: 'original' });
      const edited = await patch('WIKI', page.title, page.revisionid, { contents: 'Vandalised!', description: 'changed' });
      expect(edited.status).toBe(200);
      const res = await revert('WIKI', page.title, `?revisionid=${edited.body.revisionid}&to_revisionid=${page.revisionid}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ contents_raw: 'Original text.', description: 'original', wikiid: page.wikiid });
      expect(res.body.revisionid).toBeGreaterThan(edited.body.revisionid);
      expect(await stored(page.wikiid)).toMatchObject({ revisionid: res.body.revisionid, contents: 'Original text.' });
      expect(await revisionRows(page.wikiid)).toBe(3);
      // History stays readable.
      expect((await get('WIKI', page.title, null, `?revisionid=${edited.body.revisionid}`)).body.contents_raw).toBe('Vandalised!');
    });

    it('keeps a category in its place in the tree', async () => {
      const page = await newPage('CATEGORY', { parent: 'Appliance', contents: 'first' });
      const moved = await patch('CATEGORY', page.title, page.revisionid, { parent: 'Computer', contents: 'second' });
      expect(moved.status).toBe(200);
      const res = await revert('CATEGORY', page.title, `?revisionid=${moved.body.revisionid}&to_revisionid=${page.revisionid}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ contents_raw: 'first', parent: 'Computer' });
      expect(pathTo(await tree(), page.title)).toEqual(['Electronics', 'Computer', page.title]);
    });

    it('answers 422 to an unknown to_revisionid (or one of another page)', async () => {
      const page = await newPage('WIKI', { contents: 'Only revision.' });
      const other = await newPage('WIKI');
      for (const to of [2147483647, other.revisionid]) {
        const res = await revert('WIKI', page.title, `?revisionid=${page.revisionid}&to_revisionid=${to}`);
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toEqual(['to_revisionid']);
      }
      expect((await stored(page.wikiid)).revisionid).toBe(page.revisionid);
    });

    it('answers 422 when to_revisionid or revisionid is missing', async () => {
      const page = await newPage('WIKI', { contents: 'a' });
      const missingTo = await revert('WIKI', page.title, `?revisionid=${page.revisionid}`);
      expect(missingTo.status).toBe(422);
      expect(fieldsOf(missingTo)).toEqual(['to_revisionid']);
      const missingRev = await revert('WIKI', page.title, `?to_revisionid=${page.revisionid}`);
      expect(missingRev.status).toBe(422);
      expect(fieldsOf(missingRev)).toEqual(['revisionid']);
    });

    it('answers a stale revisionid with 409 whose body is the current page', async () => {
      const page = await newPage('WIKI', { contents: 'one' });
      const edited = await patch('WIKI', page.title, page.revisionid, { contents: 'two' });
      const res = await revert('WIKI', page.title, `?revisionid=${page.revisionid}&to_revisionid=${page.revisionid}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual((await get('WIKI', page.title)).body);
      expect(res.body).toMatchObject({ revisionid: edited.body.revisionid, contents_raw: 'two' });
    });

    it('answers alice with 403 and an unknown page with 404', async () => {
      const page = await newPage('WIKI', { contents: 'one' });
      const edited = await patch('WIKI', page.title, page.revisionid, { contents: 'two' });
      const alice = await revert('WIKI', page.title, `?revisionid=${edited.body.revisionid}&to_revisionid=${page.revisionid}`, 'alice');
      expect(alice.status).toBe(403);
      expect(alice.body.requiredPrivileges).toEqual(['Admin']);
      expect((await revert('WIKI', page.title, `?revisionid=${edited.body.revisionid}&to_revisionid=${page.revisionid}`, null)).status).toBe(401);
      expect((await stored(page.wikiid)).contents).toBe('two');
      expect((await revert('WIKI', 'Never Existed', '?revisionid=1&to_revisionid=1')).status).toBe(404);
    });
  });

  describe('tags', () => {
    const tags = (ns: string, title: string) => api.request('GET', `/wikis/${ns}/${url(title)}/tags`);
    const tag = (method: 'PUT' | 'DELETE', ns: string, title: string, value: unknown, who: Who | null = 'admin') =>
      api.request(method, `/wikis/${ns}/${url(title)}/tag`, { token: who ? token[who] : undefined, body: { tag: value } });

    it('PUT adds tags (200, the page); GET lists them alphabetically', async () => {
      const page = await newPage('CATEGORY', { parent: 'Appliance' });
      for (const value of ['screen', 'battery', 'apple']) {
        const res = await tag('PUT', 'CATEGORY', page.title, value);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ wikiid: page.wikiid, title: page.title });
        expect(res.body.tags).toContain(value);
      }
      const res = await tags('CATEGORY', page.title);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(['apple', 'battery', 'screen']);
      expect((await get('CATEGORY', page.title, null)).body.tags).toEqual(['apple', 'battery', 'screen']);
      // Tagging does not make a new revision.
      expect((await get('CATEGORY', page.title)).body.revisionid).toBe(page.revisionid);
    });

    it('adding a tag twice keeps one', async () => {
      const page = await newPage('WIKI');
      expect((await tag('PUT', 'WIKI', page.title, 'twice')).status).toBe(200);
      expect((await tag('PUT', 'WIKI', page.title, 'twice')).status).toBe(200);
      expect((await tags('WIKI', page.title)).body).toEqual(['twice']);
    });

    it('DELETE removes a tag (200, the page); removing a missing tag is a 404', async () => {
      const page = await newPage('WIKI');
      await tag('PUT', 'WIKI', page.title, 'keep');
      await tag('PUT', 'WIKI', page.title, 'drop');
      const res = await tag('DELETE', 'WIKI', page.title, 'drop');
      expect(res.status).toBe(200);
      expect(res.body.tags).toEqual(['keep']);
      expect((await tags('WIKI', page.title)).body).toEqual(['keep']);
      const missing = await tag('DELETE', 'WIKI', page.title, 'drop');
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error: true, message: expect.any(String) });
    });

    it('is Admin only: alice 403, anonymous 401, tags unchanged', async () => {
      const page = await newPage('WIKI');
      await tag('PUT', 'WIKI', page.title, 'existing');
      const put = await tag('PUT', 'WIKI', page.title, 'alice-tag', 'alice');
      expect(put.status).toBe(403);
      expect(put.body.requiredPrivileges).toEqual(['Admin']);
      const del = await tag('DELETE', 'WIKI', page.title, 'existing', 'alice');
      expect(del.status).toBe(403);
      expect((await tag('PUT', 'WIKI', page.title, 'anon-tag', null)).status).toBe(401);
      expect((await tags('WIKI', page.title)).body).toEqual(['existing']);
    });

    it('refuses a bad tag (422)', async () => {
      const page = await newPage('WIKI');
      for (const value of ['', '   ', '!bang', 'x'.repeat(33), 'semi;colon', 42, null, undefined]) {
        const res = await tag('PUT', 'WIKI', page.title, value);
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toEqual(['tag']);
      }
      expect((await tags('WIKI', page.title)).body).toEqual([]);
    });

    it('answers 404 for tags of an unknown page', async () => {
      expect((await tag('PUT', 'WIKI', 'No Such Tagged Page', 'x')).status).toBe(404);
      expect((await tags('WIKI', 'No Such Tagged Page')).status).toBe(404);
    });
  });
});
