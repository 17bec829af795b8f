import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/** Conditional requests on every resource: ETags and 304s on reads, If-Match on the writes of guides and pages. */
describe('conditional requests (RFC 9110)', () => {
  let api: TestApi;
  let alice: string;
  let admin: string;

  beforeAll(async () => {
    api = await startTestApi();
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    // The demo content's events reach reputation first: the bodies compared show it.
    await api.settle();
  });
  afterAll(() => api.close());

  /** A raw GET (plain bytes: no gzip), with these headers. */
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.origin}/api/2.0${path}`, { headers: { 'Accept-Encoding': 'identity', ...headers } });

  describe('reads', () => {
    it.each([
      ['guide lists', '/guides?limit=5'],
      ['featured guides', '/guides/featured'],
      ['categories', '/categories'],
      ['wiki lists', '/wikis/CATEGORY?limit=5'],
      ['users', '/users'],
      ['a user', '/users/1'],
      ['teams', '/teams'],
      ['a team', '/teams/1'],
      ['badges', '/badges'],
      ['tags', '/tags'],
      ['a category as XML', '/categories/iPhone%2012?type=XML'],
    ])('%s: a strong ETag, public and revalidated, and a 304 to a matching If-None-Match', async (_, path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(res.headers.get('cache-control')).toBe('public, no-cache');
      expect(res.headers.get('vary')).toMatch(/\bAuthorization\b/);
      // The same bytes again: the same ETag.
      const again = await get(path);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe(await res.text());

      const notModified = await get(path, { 'If-None-Match': `"other", ${etag}` });
      expect(notModified.status).toBe(304);
      expect(await notModified.text()).toBe('');
      expect(notModified.headers.get('etag')).toBe(etag);
      expect(notModified.headers.get('cache-control')).toBe('public, no-cache');
      // Weak comparison for If-None-Match; another tag is a full answer.
      expect((await get(path, { 'If-None-Match': `W/${etag}` })).status).toBe(304);
      expect((await get(path, { 'If-None-Match': '"something-else"' })).status).toBe(200);
    });

    it('gives each representation its own ETag (pretty, XML), and none to errors', async () => {
      const plain = await get('/users/1');
      const pretty = await get('/users/1?pretty');
      expect(pretty.headers.get('etag')).toBeTruthy();
      expect(pretty.headers.get('etag')).not.toBe(plain.headers.get('etag'));
      expect((await get('/users/1?pretty', { 'If-None-Match': pretty.headers.get('etag')! })).status).toBe(304);
      const missing = await get('/users/999999');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('etag')).toBeNull();
    });

    it('moves the ETag of a list when its content changes', async () => {
      const before = await get('/teams');
      const created = await api.request('POST', '/teams', { token: alice, body: { name: `Conditional team ${Date.now()}` } });
      expect(created.status).toBe(201);
      const after = await get('/teams?limit=200', { 'If-None-Match': before.headers.get('etag')! });
      expect(after.status).toBe(200);
      expect(await after.text()).toContain('Conditional team');
      expect((await get('/teams', { 'If-None-Match': before.headers.get('etag')! })).status).toBe(200);
    });

    it('wiki pages: an ETag naming the revision, Last-Modified, and If-Modified-Since when no If-None-Match is sent', async () => {
      const res = await get('/wikis/CATEGORY/iPhone_12');
      expect(res.status).toBe(200);
      const page = (await res.json()) as { revisionid: number; modified_date: number };
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(new RegExp(`^"r${page.revisionid}-[A-Za-z0-9_-]{27}"$`));
      const lastModified = res.headers.get('last-modified')!;
      expect(new Date(lastModified).getTime()).toBe(page.modified_date * 1000);

      expect((await get('/wikis/CATEGORY/iPhone_12', { 'If-None-Match': etag })).status).toBe(304);
      expect((await get('/wikis/CATEGORY/iPhone_12', { 'If-Modified-Since': lastModified })).status).toBe(304);
      expect((await get('/wikis/CATEGORY/iPhone_12', { 'If-Modified-Since': new Date(Date.now() + 60_000).toUTCString() })).status).toBe(304);
      expect((await get('/wikis/CATEGORY/iPhone_12', { 'If-Modified-Since': new Date((page.modified_date - 1) * 1000).toUTCString() })).status).toBe(200);
      expect((await get('/wikis/CATEGORY/iPhone_12', { 'If-Modified-Since': 'not a date' })).status).toBe(200);
      // If-None-Match decides when present: a stale tag is a full answer whatever the date says.
      expect((await get('/wikis/CATEGORY/iPhone_12', { 'If-None-Match': '"r1-stale"', 'If-Modified-Since': lastModified })).status).toBe(200);
    });

    it('guides read with a token, as XML or at a past revision: ETags of their own, naming the revision, with Last-Modified', async () => {
      const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'Conditional read', public: true } });
      const { guideid, revisionid } = created.body as { guideid: number; revisionid: number };
      // Publishing moves the author's reputation, which the body shows: wait until it has moved.
      await api.settle();
      for (const [path, headers] of [
        [`/guides/${guideid}`, { Authorization: `api ${alice}` }],
        [`/guides/${guideid}?type=XML`, {}],
        [`/guides/${guideid}?revisionid=${revisionid}&pretty`, {}],
      ] as const) {
        const res = await get(path, headers);
        expect(res.status).toBe(200);
        const etag = res.headers.get('etag')!;
        expect(etag).toMatch(new RegExp(`^"r${revisionid}-`));
        expect(res.headers.get('last-modified')).toBeTruthy();
        expect((await get(path, { ...headers, 'If-None-Match': etag })).status).toBe(304);
        expect((await get(path, { ...headers, 'If-Modified-Since': res.headers.get('last-modified')! })).status).toBe(304);
      }
    });

    it('authenticated reads are private, vary on Authorization, and answer 304 too', async () => {
      const me = await get('/user', { Authorization: `api ${alice}` });
      expect(me.status).toBe(200);
      expect(me.headers.get('cache-control')).toBe('private, no-cache');
      expect(me.headers.get('vary')).toMatch(/\bAuthorization\b/);
      const etag = me.headers.get('etag')!;
      expect((await get('/user', { Authorization: `api ${alice}`, 'If-None-Match': etag })).status).toBe(304);
      // Another viewer's answer is another body, so another ETag.
      const other = await get('/user', { Authorization: `api ${admin}`, 'If-None-Match': etag });
      expect(other.status).toBe(200);
      expect(other.headers.get('etag')).not.toBe(etag);
      // A public read with a token is private as well: what it shows may depend on the viewer.
      const profile = await get('/users/1', { Authorization: `api ${alice}` });
      expect(profile.headers.get('cache-control')).toBe('private, no-cache');
    });
  });

  it('documents the headers on the operations (OpenAPI)', async () => {
    type Op = { parameters?: { name?: string; in?: string; $ref?: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> };
    const doc = (await api.request('GET', '/docs-json')).body as { paths: Record<string, Record<string, Op>> };
    const op = (path: string, method: string) => doc.paths[`/api/2.0${path}`]![method]!;
    const headers = (o: Op) => (o.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    for (const path of ['/guides', '/guides/{guideid}', '/wikis/{namespace}/{title}', '/teams', '/badges']) {
      expect(op(path, 'get').parameters!.map((p) => p.$ref).filter(Boolean)).toEqual(['#/components/parameters/IfNoneMatch', '#/components/parameters/IfModifiedSince']);
      expect(Object.keys(op(path, 'get').responses['200']!.headers!)).toEqual(expect.arrayContaining(['ETag', 'Last-Modified', 'Cache-Control', 'Vary']));
      expect(op(path, 'get').responses['304']).toBeDefined();
    }
    for (const [path, method] of [
      ['/guides/{guideid}', 'patch'], ['/guides/{guideid}', 'delete'], ['/guides/{guideid}/public', 'put'], ['/guides/{guideid}/public', 'delete'],
      ['/guides/{guideid}/steporder', 'put'], ['/guides/{guideid}/revert', 'post'],
      ['/wikis/{namespace}/{title}', 'patch'], ['/wikis/{namespace}/{title}', 'delete'], ['/wikis/{namespace}/{title}/revert', 'post'],
    ] as const) {
      expect(headers(op(path, method))).toContain('If-Match');
    }
    // Step writes check the step's own revision.
    expect(headers(op('/guides/{guideid}/steps/{stepid}', 'patch'))).not.toContain('If-Match');
  });

  describe('If-Match on writes', () => {
    it('is a header browsers may send (CORS)', async () => {
      const preflight = await fetch(`${api.origin}/api/2.0/guides/1`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://client.example', 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'if-match, authorization' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')!.split(',').map((h) => h.trim().toLowerCase())).toContain('if-match');
    });

    const newGuide = async (title: string) => {
      const res = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title } });
      expect(res.status).toBe(201);
      return res.body as { guideid: number; revisionid: number };
    };
    const etagOf = async (path: string, token: string) => (await get(path, { Authorization: `api ${token}` })).headers.get('etag')!;

    it('guides: the ETag of a read replaces revisionid; a stale one is the 409 with the current guide', async () => {
      const guide = await newGuide('If-Match guide');
      const etag = await etagOf(`/guides/${guide.guideid}`, alice);

      const edited = await api.request('PATCH', `/guides/${guide.guideid}`, { token: alice, headers: { 'If-Match': etag }, body: { title: 'If-Match guide, edited' } });
      expect(edited.status).toBe(200);
      expect(edited.body.title).toBe('If-Match guide, edited');
      expect(edited.body.revisionid).toBeGreaterThan(guide.revisionid);

      // The ETag read before the edit names an older revision: 409, the body the current guide.
      const stale = await api.request('PATCH', `/guides/${guide.guideid}`, { token: alice, headers: { 'If-Match': etag }, body: { title: 'Lost update' } });
      expect(stale.status).toBe(409);
      expect(stale.body.revisionid).toBe(edited.body.revisionid);
      expect(stale.body.title).toBe('If-Match guide, edited');

      // Any representation's ETag names the revision: the anonymous cached body's (gzip too) and the XML's.
      const published = await api.request('PUT', `/guides/${guide.guideid}/public`, { token: alice, headers: { 'If-Match': await etagOf(`/guides/${guide.guideid}?type=XML`, alice) } });
      expect(published.status).toBe(200);
      await api.settle();
      const gzipped = await fetch(`${api.origin}/api/2.0/guides/${guide.guideid}`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(gzipped.headers.get('etag')).toMatch(/-gzip"$/);
      const reordered = await api.request('PATCH', `/guides/${guide.guideid}`, { token: alice, headers: { 'If-Match': gzipped.headers.get('etag')! }, body: { summary: 'Via the gzip ETag' } });
      expect(reordered.status).toBe(200);

      // A tag naming no revision (another resource's, made up) or a weak one cannot match: 409.
      for (const tag of ['"made-up"', `W/${await etagOf(`/guides/${guide.guideid}`, alice)}`]) {
        const res = await api.request('PATCH', `/guides/${guide.guideid}`, { token: alice, headers: { 'If-Match': tag }, body: { title: 'Never' } });
        expect(res.status).toBe(409);
        expect(res.body.title).toBe('If-Match guide, edited');
      }
      expect((await api.request('GET', `/guides/${guide.guideid}`)).body.title).toBe('If-Match guide, edited');
    });

    it('guides: If-Match and revisionid must agree (422 otherwise); `*` alone does not replace revisionid', async () => {
      const guide = await newGuide('Both given');
      const etag = await etagOf(`/guides/${guide.guideid}`, alice);
      const disagree = await api.request('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid + 1000}`, { token: alice, headers: { 'If-Match': etag }, body: { title: 'No' } });
      expect(disagree.status).toBe(422);
      expect(disagree.body.error).toBe(true);
      expect(disagree.body.errors[0].field).toBe('If-Match');
      const agree = await api.request('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, { token: alice, headers: { 'If-Match': etag }, body: { title: 'Yes' } });
      expect(agree.status).toBe(200);
      const star = await api.request('PATCH', `/guides/${guide.guideid}`, { token: alice, headers: { 'If-Match': '*' }, body: { title: 'Star' } });
      expect(star.status).toBe(422);
      expect((await api.request('GET', `/guides/${guide.guideid}`, { token: alice })).body.title).toBe('Yes');
      // Deleting with the current ETag works; the guide is gone.
      const current = await etagOf(`/guides/${guide.guideid}`, alice);
      expect((await api.request('DELETE', `/guides/${guide.guideid}`, { token: alice, headers: { 'If-Match': current } })).status).toBe(204);
    });

    it('wiki pages: If-Match success, mismatch (409 with the current page) and disagreement with revisionid (422)', async () => {
      const title = `Conditional page ${Date.now()}`;
      const created = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'WIKI', title, contents: 'first' } });
      expect(created.status).toBe(201);
      const path = `/wikis/WIKI/${encodeURIComponent(title.replace(/ /g, '_'))}`;
      const etag = await etagOf(path, admin);
      expect(etag).toMatch(new RegExp(`^"r${created.body.revisionid}-`));

      const edited = await api.request('PATCH', path, { token: admin, headers: { 'If-Match': etag }, body: { contents: 'second' } });
      expect(edited.status).toBe(200);
      expect(edited.body.contents_raw).toBe('second');

      const stale = await api.request('PATCH', path, { token: admin, headers: { 'If-Match': etag }, body: { contents: 'lost' } });
      expect(stale.status).toBe(409);
      expect(stale.body.revisionid).toBe(edited.body.revisionid);
      expect(stale.body.contents_raw).toBe('second');

      const fresh = (await get(path)).headers.get('etag')!;
      const disagree = await api.request('PATCH', path + `?revisionid=${created.body.revisionid}`, { token: admin, headers: { 'If-Match': fresh }, body: { contents: 'no' } });
      expect(disagree.status).toBe(422);

      const reverted = await api.request('POST', `${path}/revert?to_revisionid=${created.body.revisionid}`, { token: admin, headers: { 'If-Match': fresh } });
      expect(reverted.status).toBe(200);
      expect(reverted.body.contents_raw).toBe('first');
      expect((await api.request('DELETE', path, { token: admin, headers: { 'If-Match': fresh } })).status).toBe(409);
      expect((await api.request('DELETE', path, { token: admin, headers: { 'If-Match': (await get(path)).headers.get('etag')! } })).status).toBe(204);
    });
  });
});
