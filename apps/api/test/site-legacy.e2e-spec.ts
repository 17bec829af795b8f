import { tinyPdf } from './support/media-files.js';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/** The site-wide reads of older clients, and the guide's document and intro-video write fields. */
describe('site settings, user flags, collections; guide document and video fields', () => {
  let api: TestApi;
  let admin: string;
  let alice: string;

  beforeAll(async () => {
    api = await startTestApi({ PUBLIC_REGISTRATION: 'false' });
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
  });
  afterAll(() => api.close());

  it('GET /sites/info and GET /info answer the site settings with every guide type', async () => {
    const res = await api.request('GET', '/sites/info');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      siteid: 1,
      private: false,
      authentication: { standard: true, sso: false, 'public-registration': false },
      'object-name-singular': 'Device',
      'object-name-plural': 'Devices',
    });
    expect(Object.keys(res.body['guide-types'])).toEqual(['replacement', 'installation', 'repair', 'disassembly', 'teardown', 'technique', 'maintenance', 'how-to']);
    expect(res.body['guide-types'].replacement).toEqual({ title: 'Replacement', prompt: 'What part are you replacing?' });
    expect(res.body['guide-types'].teardown).toEqual({ title: 'Teardown', prompt: '' });
    expect((await api.request('GET', '/info')).body).toEqual(res.body);
  });

  it('GET /user/flags answers the flags the caller may set: all for an Admin, the unprivileged ones for others; 401 without a token', async () => {
    const mine = await api.request('GET', '/user/flags', { token: alice });
    expect(mine.status).toBe(200);
    expect(Object.keys(mine.body.guide).sort()).toEqual(['GUIDE_IN_PROGRESS', 'GUIDE_PREREQ_ONLY', 'GUIDE_USER_CONTRIBUTED']);
    expect(mine.body.guide.GUIDE_IN_PROGRESS).toEqual({ flagid: 'GUIDE_IN_PROGRESS', title: 'In Progress', text: 'This guide is a work in progress.' });
    expect(Object.keys((await api.request('GET', '/user/flags', { token: admin })).body.guide)).toContain('GUIDE_STARRED');
    const anonymous = await api.request('GET', '/user/flags');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: true });
    expect((await api.request('GET', '/user/flags', { token: 'not-a-token' })).status).toBe(401);
  });

  it('GET /collections is an empty list, with paging checked (400)', async () => {
    expect(await api.request('GET', '/collections?limit=5')).toMatchObject({ status: 200, body: [] });
    expect((await api.request('GET', '/collections?limit=-1')).status).toBe(400);
    expect((await api.request('GET', '/collections?offset=x')).status).toBe(400);
  });

  it('keeps documents, featured_documentid and objectid with the guide\'s revisions and shows the documents; refuses others\' documents, bad types and fields the original never had', async () => {
    const bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
    const upload = async (token: string, name: string) => {
      const res = await api.raw('POST', `/api/2.0/user/media/documents?file=${encodeURIComponent(name)}`, { method: 'POST', headers: { Authorization: `api ${token}` }, body: tinyPdf() });
      expect(res.status).toBe(201);
      return res.body as { documentid: number; guid: string; title: string; download_url: string };
    };
    const manual = await upload(alice, 'Service manual.pdf');
    const wiring = await upload(alice, 'Wiring.pdf');
    const bobs = await upload(bob, 'Bob notes.pdf');
    const created = await api.request('POST', '/guides', {
      token: alice,
      body: { category: 'Appliance', type: 'repair', title: 'Documents Probe', public: true, documents: [wiring.documentid, manual.documentid], featured_documentid: manual.documentid, objectid: 9 },
    });
    expect(created.status).toBe(201);
    const link = (d: typeof manual) => ({ documentid: d.documentid, text: d.title, url: `/Document/${d.guid}/${encodeURIComponent(`${d.title}.pdf`)}`, download_url: d.download_url });
    expect(created.body).toMatchObject({ documents: [link(wiring), link(manual)], featured_documentid: manual.documentid, intro_video: null });
    const id = created.body.guideid;
    // Anonymous readers (the cached body) and signed-in ones see the same.
    expect((await api.request('GET', `/guides/${id}`)).body.documents).toEqual([link(wiring), link(manual)]);
    expect((await api.request('GET', `/guides/${id}`, { token: bob })).body.featured_documentid).toBe(manual.documentid);
    // Sending them again is a no-op; someone else's document or no document at all is a 422 naming it.
    const same = await api.request('PATCH', `/guides/${id}?revisionid=${created.body.revisionid}`, { token: alice, body: { documents: [wiring.documentid, manual.documentid], objectid: 9 } });
    expect(same.body.revisionid).toBe(created.body.revisionid);
    const foreign = await api.request('PATCH', `/guides/${id}?revisionid=${created.body.revisionid}`, { token: alice, body: { documents: [manual.documentid, bobs.documentid, 999999] } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.map((e: { field: string }) => e.field)).toEqual(['documents[1]', 'documents[2]']);
    expect((await api.request('PATCH', `/guides/${id}?revisionid=${created.body.revisionid}`, { token: alice, body: { featured_documentid: bobs.documentid } })).status).toBe(422);
    // Cleared as a new revision; the older revision still has them.
    const cleared = await api.request('PATCH', `/guides/${id}?revisionid=${created.body.revisionid}`, { token: alice, body: { objectid: null, featured_documentid: null, documents: [] } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ documents: [], featured_documentid: null });
    expect(cleared.body.revisionid).not.toBe(created.body.revisionid);
    expect((await api.request('GET', `/guides/${id}?revisionid=${created.body.revisionid}`)).body.documents).toEqual([link(wiring), link(manual)]);
    for (const [field, value] of [
      ['documents', 'four'],
      ['documents', [0]],
      ['featured_documentid', 'x'],
      ['objectid', 1.5],
    ] as const) {
      const res = await api.request('PATCH', `/guides/${id}?revisionid=${cleared.body.revisionid}`, { token: alice, body: { [field]: value } });
      expect({ field, status: res.status, fields: res.body.errors?.map((e: { field: string }) => e.field) }).toEqual({ field, status: 422, fields: [field] });
    }
    const unknown = await api.request('POST', '/guides', { token: alice, body: { category: 'Appliance', type: 'repair', video_url: 'x' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe("Unknown field 'video_url'");
  });

  it('GET /tags lists the tags of public guides and live pages once each, in the order first used; private guides and deleted pages keep theirs unseen', async () => {
    const before = (await api.request('GET', '/tags?limit=200')).body as string[];
    const guide = (await api.request('GET', '/guides?limit=1')).body[0].guideid;
    const hidden = await api.request('POST', '/guides', { token: alice, body: { category: 'Appliance', type: 'repair', title: 'Private Tag Probe' } });
    const page = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'WIKI', title: 'Tag Probe Page' } });
    const gone = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'WIKI', title: 'Tag Probe Gone' } });
    const tag = (path: string, value: string) => api.request('PUT', path, { token: admin, body: { tag: value } });
    expect((await tag(`/guides/${guide}/tag`, 'zz-first')).status).toBe(200);
    expect((await tag('/wikis/WIKI/Tag_Probe_Page/tag', 'zz-second')).status).toBe(200);
    expect((await tag('/wikis/WIKI/Tag_Probe_Page/tag', 'zz-first')).status).toBe(200);
    expect((await tag(`/guides/${hidden.body.guideid}/tag`, 'zz-private')).status).toBe(200);
    expect((await tag('/wikis/WIKI/Tag_Probe_Gone/tag', 'zz-deleted')).status).toBe(200);
    expect((await api.request('DELETE', `/wikis/WIKI/Tag_Probe_Gone?revisionid=${gone.body.revisionid}`, { token: admin })).status).toBe(204);
    expect(page.status).toBe(201);
    const after = (await api.request('GET', '/tags?limit=200')).body as string[];
    expect(after).toEqual([...before, 'zz-first', 'zz-second']);
    const newest = (await api.request('GET', '/tags?order=DESC&limit=2')).body;
    expect(newest).toEqual(['zz-second', 'zz-first']);
    expect((await api.request('GET', `/tags?offset=${after.length - 1}`)).body).toEqual(['zz-second']);
    expect((await api.request('GET', '/tags?limit=1')).body).toHaveLength(1);
    for (const bad of ['order=sideways', 'limit=-1', 'offset=x']) expect((await api.request('GET', `/tags?${bad}`)).status).toBe(400);
  });
});
