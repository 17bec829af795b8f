import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/** Wiki pages (category pages above all) in other languages over real HTTP. */
describe('wiki pages over HTTP: translations (langid)', () => {
  let api: TestApi;
  let admin: string;
  let alice: string;

  const get = (path: string) => api.request('GET', path);
  const patch = (path: string, body: unknown, token = admin) => api.request('PATCH', path, { token, body });

  /** A fresh category page (Admin). */
  async function category(title: string) {
    const res = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'CATEGORY', title, contents: 'How to fix it.', description: 'A device.', display_title: title } });
    expect(res.status).toBe(201);
    return res.body as { title: string; revisionid: number; [key: string]: unknown };
  }

  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
  });
  afterAll(() => api.close());

  it('has a demo category page in German', async () => {
    const de = await get('/wikis/CATEGORY/Nintendo_Switch?langid=de');
    expect(de.status).toBe(200);
    expect(de.body).toMatchObject({ title: 'Nintendo Switch', langid: 'de', available_langids: ['de', 'en'], contents_raw: expect.stringContaining('Fehlerbehebung') });
    expect((await get('/wikis/CATEGORY/Nintendo_Switch')).body).toMatchObject({ langid: 'en', contents_raw: expect.stringContaining('Troubleshooting') });
  });

  it('falls back to the master language, translates with PATCH, and leaves the default read as it was', async () => {
    const page = await category('Translated Phone');
    const path = '/wikis/CATEGORY/Translated_Phone';
    const fallback = await get(`${path}?langid=de`);
    expect(fallback.status).toBe(200);
    expect(fallback.body).toMatchObject({ langid: 'en', available_langids: ['en'], revisionid: page.revisionid, contents_raw: 'How to fix it.' });
    const before = (await get(path)).body;

    const started = await patch(`${path}?langid=de&revisionid=${page.revisionid}`, { display_title: 'Übersetztes Telefon', contents: "'''Reparatur'''" });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      title: 'Translated Phone', display_title: 'Übersetztes Telefon', contents_raw: "'''Reparatur'''", contents_rendered: expect.stringContaining('<strong>Reparatur</strong>'),
      description: 'A device.', langid: 'de', available_langids: ['de', 'en'], source_revisionid: page.revisionid,
    });
    expect(started.body.revisionid).toBeGreaterThan(page.revisionid);

    const de = await get(`${path}?langid=de`);
    expect(de.body).toMatchObject({ display_title: 'Übersetztes Telefon', langid: 'de', revisionid: started.body.revisionid });
    expect(de.headers.get('etag')).toMatch(new RegExp(`^"r${started.body.revisionid}-`));
    const after = (await get(path)).body;
    expect(after).toEqual({ ...before, available_langids: ['de', 'en'] });

    // The translation's revision is checked: stale → 409 with the page in that language.
    const stale = await patch(`${path}?langid=de&revisionid=${page.revisionid}`, { contents: 'Alt' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ langid: 'de', revisionid: started.body.revisionid, display_title: 'Übersetztes Telefon' });
    const next = await patch(`${path}?langid=de&revisionid=${started.body.revisionid}`, { description: 'Ein Gerät.' });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ description: 'Ein Gerät.', display_title: 'Übersetztes Telefon' });
    // The master page's revision did not move: its own writes stay valid.
    expect((await patch(`${path}?revisionid=${page.revisionid}`, { description: 'A phone.' })).status).toBe(200);
    expect((await get(`${path}?langid=de`)).body.description).toBe('Ein Gerät.');
  });

  it('starts a translation with POST /wikis?langid= on an existing title with source_revisionid', async () => {
    const page = await category('Posted Phone');
    const res = await api.request('POST', '/wikis?langid=fr', { token: admin, body: { namespace: 'CATEGORY', title: 'Posted Phone', contents: 'Comment le réparer.', source_revisionid: page.revisionid } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Posted Phone', contents_raw: 'Comment le réparer.', langid: 'fr', source_revisionid: page.revisionid, available_langids: ['en', 'fr'] });
    const again = await api.request('POST', '/wikis?langid=fr', { token: admin, body: { namespace: 'CATEGORY', title: 'Posted Phone', contents: 'Encore.', source_revisionid: page.revisionid } });
    expect(again.status).toBe(422);
    // Without langid, an existing title stays a 422.
    expect((await api.request('POST', '/wikis', { token: admin, body: { namespace: 'CATEGORY', title: 'Posted Phone', contents: 'x' } })).status).toBe(422);
  });

  it('refuses shared fields, unknown languages, non-Admins and unknown pages', async () => {
    const page = await category('Guarded Phone');
    const path = '/wikis/CATEGORY/Guarded_Phone';
    const shared = await patch(`${path}?langid=es&revisionid=${page.revisionid}`, { contents: 'Cómo', flags: [], image: null });
    expect(shared.status).toBe(422);
    expect(shared.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['flags', 'image']);
    expect((await patch(`${path}?langid=es&revisionid=${page.revisionid}`, { contents: 'Cómo', source_revisionid: 999999 })).status).toBe(422);
    expect((await get(`${path}?langid=spanish`)).status).toBe(400);
    expect((await get(`${path}?langid=spanish`)).body.message).toMatch(/not a language code/);
    expect((await patch(`${path}?langid=es&revisionid=${page.revisionid}`, { contents: 'Cómo' }, alice)).status).toBe(403);
    expect((await patch(`/wikis/CATEGORY/No_Such_Phone?langid=es&revisionid=1`, { contents: 'Cómo' })).status).toBe(404);
    expect(await api.sql('SELECT 1 FROM wiki_translations t JOIN wiki_pages w ON w.id = t.wiki_id WHERE w.title = $1', ['Guarded Phone'])).toEqual([]);
  });
});
