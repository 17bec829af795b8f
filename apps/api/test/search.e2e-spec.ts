import { DEMO_ACCOUNTS, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { anImage } from './support/images.js';
import { KEPT_PAGE_MS, searchScope, SiteSearch } from '../src/search/site-search.js';

type Result = { dataType: 'guide' | 'wiki'; guideid?: number; wikiid?: number; title: string; namespace?: string; type?: string };

const titlesOf = (res: ApiResponse) => (res.body.results as Result[]).map((r) => r.title);

/** Every body `/search` answers: the legacy envelope, whatever the query. */
function expectEnvelope(res: ApiResponse, path: string): void {
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(Object.keys(res.body).sort()).toEqual(['limit', 'moreResults', 'offset', 'results', 'search', 'totalResults']);
  expect(res.body).toEqual({
    search: expect.any(String),
    limit: expect.any(Number),
    offset: expect.any(Number),
    totalResults: expect.any(Number),
    moreResults: expect.any(Boolean),
    results: expect.any(Array),
  });
  expect(res.body.moreResults).toBe(res.body.offset + res.body.results.length < res.body.totalResults);
}

/**
 * Search and suggest over the demo data (guides, the private draft, category pages) and pages
 * created here: relevance, step text, visibility, filters, paging, doctypes, and queries built
 * to break a full-text query parser.
 */
describe('search and suggest over HTTP', () => {
  let api: TestApi;
  let admin = '';
  const id: Record<string, number> = {};

  const search = (path: string) => api.request('GET', `/search/${path}`);
  const suggest = (path: string) => api.request('GET', `/suggest/${path}`);
  const newPage = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/wikis', { token: admin, body });
    if (res.status !== 201) throw new Error(`page not created: ${res.status} ${res.text}`);
    return res.body as { wikiid: number; revisionid: number; title: string };
  };

  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    for (const row of await api.sql<{ id: number; title: string }>('SELECT id, title FROM guides')) id[row.title] = row.id;
  });
  afterAll(() => api.close());

  const BATTERY = 'iPhone 12 Battery Replacement';
  const TEARDOWN = 'MacBook Pro 13" Two Thunderbolt Ports 2020 Teardown';
  const DRAFT = 'Nintendo Switch Fan Replacement (draft)';

  describe('GET /search/{query}', () => {
    it('answers the legacy envelope, the best match first, guides as GuideSummary bodies', async () => {
      const res = await search('battery');
      expectEnvelope(res, 'battery');
      expect(res.body).toMatchObject({ search: 'battery', limit: 20, offset: 0, moreResults: false });
      expect(res.body.results[0].title).toBe(BATTERY);
      // The teardown only mentions the battery in its steps: it comes after the guide about it.
      expect(titlesOf(res)).toContain(TEARDOWN);
      expect(titlesOf(res).indexOf(TEARDOWN)).toBeGreaterThan(0);
      expect(res.body.totalResults).toBe(res.body.results.length);
      const listed = await api.request('GET', `/guides?guideids=${id[BATTERY]}`);
      expect(res.body.results[0]).toEqual(listed.body[0]);
    });

    it('searches step text (markup dropped), stems words, and echoes the query', async () => {
      const res = await search('spudger');
      expect(titlesOf(res)).toEqual([BATTERY]);
      expect(titlesOf(await search('pentalobe'))).toEqual(expect.arrayContaining(['iPhone 12 Opening Procedure', TEARDOWN]));
      expect(titlesOf(await search('descaled'))).toEqual(['Coffee Maker Descaling']);
      const joycon = await search('Joy-Con%20drift');
      expect(joycon.body.search).toBe('Joy-Con drift');
      expect(titlesOf(joycon)).toEqual(['Joy-Con Joystick Replacement', 'Nintendo Switch']); // the guide, then the category page's text
      expect(titlesOf(await search('%22battery%20replacement%22%20-teardown?filter=guide'))).toEqual([BATTERY]);
      expect(titlesOf(await search('battery%20-replacement?filter=guide'))).toEqual([TEARDOWN]);
    });

    it('never shows the private draft, even to its author', async () => {
      const fan = await search('fan');
      expect(titlesOf(fan)).toContain(TEARDOWN); // "a single fan" in a step
      expect(titlesOf(fan)).not.toContain(DRAFT);
      for (const path of ['draft', 'Nintendo%20Switch%20fan', 'progress']) expect(titlesOf(await search(path))).not.toContain(DRAFT);
      const bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      expect(titlesOf(await api.request('GET', '/search/draft', { token: bob }))).not.toContain(DRAFT);
      expect(titlesOf(await suggest('fan'))).not.toContain(DRAFT);
      expect((await suggest(`guideid:${id[DRAFT]}`)).body.results).toEqual([]);
    });

    it('finds category pages by title, description and text, as wiki results', async () => {
      const res = await search('iphone?filter=category');
      expectEnvelope(res, 'iphone?filter=category');
      expect(titlesOf(res).sort()).toEqual(['iPhone', 'iPhone 12']);
      const page = (res.body.results as Record<string, unknown>[]).find((r) => r['title'] === 'iPhone 12')!;
      expect(Object.keys(page).sort()).toEqual(['author', 'dataType', 'display_title', 'image', 'langid', 'modified_date', 'namespace', 'summary', 'text', 'title', 'url', 'wikiid'].sort());
      expect(page).toMatchObject({
        dataType: 'wiki',
        namespace: 'CATEGORY',
        display_title: 'iPhone 12',
        langid: 'en',
        summary: expect.stringContaining('October 2020'),
        url: expect.stringMatching(/^https?:\/\/[^/]+\/Device\/iPhone_12$/),
        wikiid: expect.any(Number),
        modified_date: expect.any(Number),
        author: expect.any(Number),
        image: anImage(),
      });
      // The text is plain: headings, bold and links of the markup are gone.
      expect(page['text']).toMatch(/^Identification The iPhone 12 has flat edges/);
      expect(page['text']).not.toMatch(/==|'''|\[/);
      expect(titlesOf(await search('magsafe'))).toEqual(['iPhone 12']); // only in the page's text
      expect(titlesOf(await search('hybrid%20console?filter=device'))).toEqual(['Nintendo Switch']);
    });

    it('merges guides and pages by rank, with the real total', async () => {
      const all = await search('iphone?limit=200');
      const guides = await search('iphone?filter=guide&limit=200');
      const pages = await search('iphone?filter=category&limit=200');
      expect(all.body.totalResults).toBe(guides.body.totalResults + pages.body.totalResults);
      expect(new Set((all.body.results as Result[]).map((r) => r.dataType))).toEqual(new Set(['guide', 'wiki']));
      expect(guides.body.results.every((r: Result) => r.dataType === 'guide')).toBe(true);
      expect(titlesOf(all).sort()).toEqual([...titlesOf(guides), ...titlesOf(pages)].sort());
      // Guides keep their relative order in the merge, and so do pages.
      expect(titlesOf(all).filter((t) => titlesOf(guides).includes(t))).toEqual(titlesOf(guides));
      expect(titlesOf(all).filter((t) => titlesOf(pages).includes(t))).toEqual(titlesOf(pages));
    });

    it('filters by result type', async () => {
      const teardown = await search('battery?filter=teardown');
      expect(teardown.body).toMatchObject({ totalResults: 1, results: [{ title: TEARDOWN, type: 'teardown' }] });
      expect((await search('battery?filter=guide')).body.totalResults).toBe(2);
      expect((await search('battery?filter=teardown,guide')).body.totalResults).toBe(2);
      expect((await search('iphone?filter=CATEGORY,item')).body.results.every((r: Result) => r.namespace === 'CATEGORY')).toBe(true);
      for (const filter of ['question', 'product', 'nonsense', 'wiki', 'info', 'item']) {
        const res = await search(`iphone?filter=${filter}`);
        expectEnvelope(res, filter);
        expect(res.body.totalResults).toBe(0);
      }
      expect((await search('iphone?filter=')).body.totalResults).toBe((await search('iphone')).body.totalResults);
    });

    it('pages through the merged results without gaps or repeats', async () => {
      const full = await search('iphone?limit=200');
      const total = full.body.totalResults;
      expect(total).toBeGreaterThan(3);
      const first = await search('iphone?limit=1');
      expectEnvelope(first, 'limit=1');
      expect(first.body).toMatchObject({ limit: 1, offset: 0, totalResults: total, moreResults: true });
      expect(first.body.results).toHaveLength(1);
      const walked: string[] = [];
      for (let offset = 0; offset < total; offset += 2) {
        const page = await search(`iphone?limit=2&offset=${offset}`);
        expect(page.body.moreResults).toBe(offset + 2 < total);
        walked.push(...titlesOf(page));
      }
      expect(walked).toEqual(titlesOf(full));
      const beyond = await search(`iphone?offset=${total + 5}`);
      expect(beyond.body).toMatchObject({ totalResults: total, moreResults: false, results: [] });
      expect((await search('iphone?limit=5000')).body.limit).toBe(200);
      expect((await search('iphone?offset=10000')).body).toMatchObject({ offset: 10000, totalResults: total, results: [] });
      for (const bad of ['limit=-1', 'limit=abc', 'offset=-5', 'offset=1.5', 'offset=10001']) {
        const res = await search(`iphone?${bad}`);
        expect({ bad, status: res.status, body: res.body }).toEqual({ bad, status: 400, body: { error: true, message: expect.any(String) } });
      }
    });

    it('keeps pages of queries matching many guides, never showing what changed under them', async () => {
      const [bob] = await api.sql<{ id: number; username: string }>('SELECT id, username FROM users WHERE email = $1', [DEMO_ACCOUNTS.bob.email]);
      await api.sql(
        `INSERT INTO guides (id, revisionid, author_id, contributor_ids, title, category, subject, type, difficulty, summary, introduction, conclusion,
            time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags, is_public, locale, created_at, modified_at, published_at, deleted_at, steps_text)
         SELECT 900000 + n, nextval('guide_revision_seq'), $2, ARRAY[$2::int], 'Gizmo Widget ' || n, g.category, g.subject, g.type, g.difficulty, g.summary, '', '',
            0, 0, NULL, '[]', '[]', '{}', '{}', true, 'en', now(), now(), now(), NULL, ''
           FROM guides g CROSS JOIN generate_series(1, 520) AS n WHERE g.id = $1`,
        [id[BATTERY], bob!.id],
      );
      const page = await newPage({ namespace: 'WIKI', title: 'Widget Widget Widget', description: 'Widget, widget, widget: every widget.' });
      const first = await search('widget');
      expectEnvelope(first, 'widget');
      expect(first.body.totalResults).toBe(521);
      expect((first.body.results as Result[]).map((r) => r.wikiid)).toContain(page.wikiid);
      expect((await search('widget')).body).toEqual(first.body);
      const suggested = await suggest('gizm?doctypes=guide');
      expect((await suggest('gizm?doctypes=guide')).body).toEqual(suggested.body);
      // Built from the kept page (and ranking), an answer says when its order was computed, so the
      // stamp layer keeps it no longer than that ranking may lag; ranked for itself, it says null.
      const site = api.running.app.get(SiteSearch, { strict: false });
      const kept = await site.search('widget', searchScope(undefined), { limit: 20, offset: 0 });
      expect(kept.body).toEqual(first.body);
      expect(kept.since).toEqual(expect.any(Number));
      expect(Date.now() - kept.since!).toBeLessThan(KEPT_PAGE_MS);
      expect((await site.suggest('gizm', ['guide'])).since).toEqual(expect.any(Number));
      expect((await site.search('quixotic', searchScope(undefined), { limit: 20, offset: 0 })).since).toBeNull();

      // A guide made private, another edited, the author renamed and the page deleted: the next
      // answer shows each as it now is (the order and the total may be kept a few seconds).
      const guides = (first.body.results as Result[]).filter((r) => r.dataType === 'guide');
      const [hidden, edited] = [guides[0]!.guideid!, guides[1]!.guideid!];
      expect((suggested.body.results as Result[]).map((r) => r.guideid)).toEqual(expect.arrayContaining([hidden, edited]));
      await api.sql('UPDATE guides SET is_public = false WHERE id = $1', [hidden]);
      await api.sql(`UPDATE guides SET title = 'Gizmo Widget Renamed', revisionid = nextval('guide_revision_seq') WHERE id = $1`, [edited]);
      await api.sql('UPDATE users SET username = $2 WHERE id = $1', [bob!.id, 'Widget Maker']);
      try {
        expect((await api.request('DELETE', `/wikis/WIKI/${encodeURIComponent('Widget_Widget_Widget')}?revisionid=${page.revisionid}`, { token: admin })).status).toBe(204);
        const after = (await search('widget')).body.results as (Result & { username?: string })[];
        expect(after.map((r) => r.guideid)).not.toContain(hidden);
        expect(after.map((r) => r.wikiid)).not.toContain(page.wikiid);
        expect(after.find((r) => r.guideid === edited)).toMatchObject({ title: 'Gizmo Widget Renamed', username: 'Widget Maker' });
        expect(after.filter((r) => r.dataType === 'guide').every((r) => r.username === 'Widget Maker')).toBe(true);
        const suggestedAfter = (await suggest('gizm?doctypes=guide')).body.results as (Result & { username?: string })[];
        expect(suggestedAfter.map((r) => r.guideid)).not.toContain(hidden);
        expect(suggestedAfter.find((r) => r.guideid === edited)).toMatchObject({ title: 'Gizmo Widget Renamed', username: 'Widget Maker' });
      } finally {
        await api.sql('UPDATE users SET username = $2 WHERE id = $1', [bob!.id, bob!.username]);
        await api.sql('DELETE FROM guides WHERE id > 900000');
      }
    });

    it('leaves out deleted pages', async () => {
      const page = await newPage({ namespace: 'WIKI', title: 'Quokka Care', description: 'All about the quokka.' });
      expect(titlesOf(await search('quokka'))).toEqual(['Quokka Care']);
      expect((await search('quokka?filter=wiki')).body.results[0]).toMatchObject({ namespace: 'WIKI', wikiid: page.wikiid });
      expect((await api.request('DELETE', `/wikis/WIKI/Quokka_Care?revisionid=${page.revisionid}`, { token: admin })).status).toBe(204);
      expect((await search('quokka')).body).toMatchObject({ totalResults: 0, results: [] });
    });
  });

  describe('GET /suggest/{query}', () => {
    it('suggests by word prefix: guides and category pages by default', async () => {
      const batt = await suggest('batt');
      expect(batt.status).toBe(200);
      expect(Object.keys(batt.body).sort()).toEqual(['query', 'results']);
      expect(batt.body.query).toBe('batt');
      // Category pages first (the iPhone 12 page links to "the battery replacement"), then guides, best first.
      expect(titlesOf(batt)).toEqual(['iPhone 12', BATTERY, TEARDOWN]);
      expect(batt.body.results[1]).toMatchObject({ dataType: 'guide', guideid: id[BATTERY] });
      const iph = await suggest('iph?doctypes=category');
      expect(iph.body.results.every((r: Result) => r.dataType === 'wiki' && r.namespace === 'CATEGORY')).toBe(true);
      expect(titlesOf(iph).sort()).toEqual(['iPhone', 'iPhone 12']);
      expect(titlesOf(await suggest('iph%2012%20batt?doctypes=guide'))).toEqual([BATTERY]);
      const both = await suggest('iph');
      expect((both.body.results as Result[]).map((r) => r.dataType)).toEqual([...Array(2).fill('wiki'), ...Array(both.body.results.length - 2).fill('guide')]);
    });

    it('answers guideid:<n> with that guide when it is public', async () => {
      const res = await suggest(`guideid:${id[BATTERY]}`);
      expect(res.body).toEqual({ query: `guideid:${id[BATTERY]}`, results: [(await api.request('GET', `/guides?guideids=${id[BATTERY]}`)).body[0]] });
      expect((await suggest('guideid:2')).body.results.map((r: Result) => r.guideid)).toEqual([2]);
      expect((await suggest('GUIDEID:%20' + id[BATTERY])).body.results[0].guideid).toBe(id[BATTERY]);
      expect((await suggest('guideid:999999')).body.results).toEqual([]);
    });

    it('reads doctypes: aliases, unknown values ignored, none valid a 400', async () => {
      const bogus = await suggest('batt?doctypes=bogus');
      expect(bogus.status).toBe(400);
      expect(bogus.body).toEqual({ error: true, message: expect.stringContaining('doctypes') });
      expect((await suggest('batt?doctypes=bogus,guide')).body.results[0].title).toBe(BATTERY);
      for (const topic of ['topic', 'device', 'category', 'DEVICE']) expect(titlesOf(await suggest(`coff?doctypes=${topic}`))).toEqual(['Coffee Maker']);
      expect(titlesOf(await suggest('coff?doctypes=all'))).toEqual(['Coffee Maker', 'Coffee Maker Descaling']);
      expect(titlesOf(await suggest('coff?doctypes=guide,topic'))).toEqual(['Coffee Maker Descaling', 'Coffee Maker']);
      // Pipes separate them too (an older client's form), mixed with commas as well.
      expect(titlesOf(await suggest('coff?doctypes=guide|topic'))).toEqual(['Coffee Maker Descaling', 'Coffee Maker']);
      expect(titlesOf(await suggest(`coff?doctypes=${encodeURIComponent('device|bogus,guide')}`))).toEqual(['Coffee Maker', 'Coffee Maker Descaling']);
      expect((await suggest('coff?doctypes=bogus|nope')).status).toBe(400);
      expect((await suggest('coff?doctypes=question,post')).body.results).toEqual([]);
      expect((await suggest('coff?doctypes=item')).body.results).toEqual([]);
    });

    it('shares at most 10 results between the doctypes, grouped in the order asked', async () => {
      for (let i = 1; i <= 12; i++) await newPage({ namespace: 'CATEGORY', title: `Zorblax Model ${i}`, parent: 'Appliance', description: 'A Zorblax appliance.' });
      await newPage({ namespace: 'ITEM', title: 'Zorblax Spring', description: 'A spare spring.' });
      const alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      for (let i = 1; i <= 3; i++) {
        const res = await api.request('POST', '/guides', { token: alice, body: { category: 'Appliance', type: 'repair', title: `Zorblax Repair ${i}`, public: true } });
        expect(res.status).toBe(201);
      }
      const mixed = await suggest('zorb');
      expect(mixed.body.results).toHaveLength(10);
      expect((mixed.body.results as Result[]).map((r) => r.dataType)).toEqual([...Array(7).fill('wiki'), ...Array(3).fill('guide')]);
      const three = await suggest('zorb?doctypes=item,guide,topic');
      expect((three.body.results as Result[]).map((r) => (r.dataType === 'guide' ? 'guide' : r.namespace))).toEqual(['ITEM', 'guide', 'guide', 'guide', ...Array(6).fill('CATEGORY')]);
      expect((await suggest('zorb?doctypes=topic')).body.results).toHaveLength(10);
      expect((await suggest('z')).body.results.length).toBeLessThanOrEqual(10);
    });

    it('answers a blank query, or one without words, with no results', async () => {
      for (const path of ['%20', '%20%20%20', '%09', '%26%7C%21', '(((']) {
        const res = await suggest(path);
        expect({ path, status: res.status, results: res.body.results }).toEqual({ path, status: 200, results: [] });
        expect(res.body.query).toBe(decodeURIComponent(path));
      }
      expect((await suggest('%20?doctypes=guide')).body).toEqual({ query: ' ', results: [] });
    });
  });

  describe('hostile queries', () => {
    const HOSTILE = [
      '%26%7C%21',
      '%26',
      '!!',
      '(((',
      ')))',
      "'",
      "''",
      '%22',
      '%22unterminated',
      '%5C',
      '%5C%5C%3A*',
      'a:*',
      ':*',
      '*',
      'batt%3A*A',
      '%3C-%3E',
      '%3C2%3E',
      'battery%20%3C-%3E%20adhesive',
      'battery%20%26%20%7C%20!%20adhesive',
      '-',
      '--battery',
      'or',
      'or%20or',
      'the',
      '%25',
      '_',
      '%3F',
      "'%3B%20DROP%20TABLE%20guides%3B%20--",
      encodeURIComponent('écran 修理 ремонт إصلاح'),
      encodeURIComponent('🔧🔩'),
      encodeURIComponent('e\u0301cran'),
      encodeURIComponent('x'.repeat(10 * 1024)),
      encodeURIComponent('battery '.repeat(1280)),
      encodeURIComponent(Array.from({ length: 600 }, (_, i) => `w${i}`).join('|')),
    ];

    it.each(HOSTILE.map((path) => [path.length > 40 ? `${path.slice(0, 40)}… (${path.length} chars)` : path, path]))('%s: search answers a valid envelope', async (_name, path) => {
      expectEnvelope(await search(path), path);
      expectEnvelope(await search(`${path}?filter=guide,category,wiki,item,info&limit=200&offset=1`), path);
    });

    it.each(HOSTILE.map((path) => [path.length > 40 ? `${path.slice(0, 40)}… (${path.length} chars)` : path, path]))('%s: suggest answers at most 10 results', async (_name, path) => {
      for (const doctypes of ['all', 'item,guide,topic,question']) {
        const res = await suggest(`${path}?doctypes=${doctypes}`);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expect(Object.keys(res.body).sort()).toEqual(['query', 'results']);
        expect(res.body.results.length).toBeLessThanOrEqual(10);
      }
    });

    it('refuses a NUL character (400, as in any URL: no text column can hold it), and still matches long and unusual queries', async () => {
      for (const path of ['%00', 'battery%00']) {
        expect(await search(path)).toMatchObject({ status: 400, body: { error: true, message: 'The request URL contains a NUL character (%00)' } });
        expect(await suggest(path)).toMatchObject({ status: 400, body: { error: true, message: 'The request URL contains a NUL character (%00)' } });
      }
      expect(titlesOf(await search(encodeURIComponent('battery '.repeat(1280))))[0]).toBe(BATTERY);
      expect(titlesOf(await search('batt%3A*A'))).toEqual([]);
      expect(titlesOf(await suggest('batt%3A*A?doctypes=guide'))[0]).toBe(BATTERY);
      expect(api.logs.filter((l) => l['level'] === 50)).toEqual([]);
    });
  });
});
