import { isEventDelivery } from './support/event-delivery.js';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';
import { GUIDE_KEYS } from './support/guide-shapes.js';

/** Guides in other languages over real HTTP: writes with `langid`, reads with and without it, fallback, conflicts. */
describe('guides over HTTP: translations (langid)', () => {
  let api: TestApi;
  let alice: string;
  let bob: string;
  const statements: string[] = [];

  // fetch would ask for gzip: plain JSON here, as a client without gzip.
  const anonymous = (path: string, headers: Record<string, string> = {}) => fetch(`${api.origin}/api/2.0${path}`, { headers: { 'Accept-Encoding': 'identity', ...headers } });
  const get = (path: string, token?: string) => api.request('GET', path, { token });
  const patch = (path: string, body: unknown, token = alice) => api.request('PATCH', path, { token, body });

  /** A public guide of Alice's with two steps (two lines, then one). */
  async function guideWithSteps(title: string): Promise<{ guideid: number; revisionid: number; steps: { stepid: number; revisionid: number }[] }> {
    const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title, summary: 'Replace it.', introduction: 'An intro.', public: true } });
    expect(created.status).toBe(201);
    const id = created.body.guideid;
    for (const lines of [[{ text: 'Remove the screws.', bullet: 'black', level: 0 }, { text: 'Keep them.', bullet: 'icon_note', level: 1 }], [{ text: 'Lift the battery.', bullet: 'red', level: 0 }]]) {
      expect((await api.request('POST', `/guides/${id}/steps`, { token: alice, body: { lines } })).status).toBe(201);
    }
    return (await get(`/guides/${id}`, alice)).body;
  }

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
  });
  afterAll(() => api.close());

  it('has a demo guide in German', async () => {
    const [row] = await api.sql<{ id: number }>(`SELECT id FROM guides WHERE title = 'Joy-Con Joystick Replacement'`);
    const de = await get(`/guides/${row!.id}?langid=de`);
    expect(de.status).toBe(200);
    expect(de.body).toMatchObject({ title: 'Joy-Con-Joystick austauschen', subject: 'Joy-Con-Joystick', langid: 'de', available_langids: ['de', 'en'], category: 'Nintendo Switch', difficulty: 'Difficult' });
    expect(de.body.steps[0].lines.map((l: { text_raw: string }) => l.text_raw)).toEqual(['Entferne die vier Y00-Schrauben auf der Rückseite des Joy-Con.', 'Die Schrauben sind winzig: nimm eine Magnetmatte.']);
    expect((await get(`/guides/${row!.id}`)).body).toMatchObject({ title: 'Joy-Con Joystick Replacement', langid: 'en', available_langids: ['de', 'en'] });
    // The oManual document in that language.
    const xml = await get(`/guides/${row!.id}?langid=de&type=XML`);
    expect(xml.status).toBe(200);
    expect(xml.text).toContain('locale="de"');
    expect(xml.text).toContain('Joy-Con-Joystick austauschen</title>');
  });

  it('searches and suggests in a language: its translations, shown in it', async () => {
    const [row] = await api.sql<{ id: number }>(`SELECT id FROM guides WHERE title = 'Joy-Con Joystick Replacement'`);
    // German stemming: "austauschen" (in the title) is found by "austauschen" and "Austausch".
    for (const word of ['austauschen', 'Drift beheben']) {
      const res = await get(`/search/${encodeURIComponent(word)}?langid=de`);
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual(expect.arrayContaining([expect.objectContaining({ dataType: 'guide', guideid: row!.id, title: 'Joy-Con-Joystick austauschen', locale: 'de' })]));
      expect(res.body.totalResults).toBeGreaterThanOrEqual(1);
    }
    // The same word in the default language finds no guide; English words find nothing in German.
    expect((await get('/search/austauschen')).body.results.filter((r: { dataType: string }) => r.dataType === 'guide')).toEqual([]);
    expect((await get('/search/replacement?langid=de&filter=guide')).body.totalResults).toBe(0);
    // A category page's translation.
    const page = await get('/search/Fehlerbehebung?langid=de&filter=category');
    expect(page.body.results).toEqual([expect.objectContaining({ dataType: 'wiki', title: 'Nintendo Switch', langid: 'de', summary: expect.stringContaining('Hybridkonsole') })]);
    // Type-ahead.
    const suggest = await get('/suggest/Joy-Con-Joy?langid=de&doctypes=guide');
    expect(suggest.status).toBe(200);
    expect(suggest.body.results).toEqual([expect.objectContaining({ guideid: row!.id, title: 'Joy-Con-Joystick austauschen', locale: 'de' })]);
    const topic = await get('/suggest/Nintendo?langid=de&doctypes=topic');
    expect(topic.body.results).toEqual([expect.objectContaining({ title: 'Nintendo Switch', langid: 'de' })]);
    expect((await get('/suggest/Joy?langid=klingon')).status).toBe(400);
    expect((await get('/search/Joy?langid=klingon')).status).toBe(400);
  });

  it('falls back to the source language when the language has no translation, and says which was served', async () => {
    const guide = await guideWithSteps('Fallback guide');
    const res = await get(`/guides/${guide.guideid}?langid=de`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(GUIDE_KEYS);
    expect(res.body).toMatchObject({ title: 'Fallback guide', langid: 'en', locale: 'en', available_langids: ['en'], revisionid: guide.revisionid });
  });

  it('starts a translation with the source revision, reads it with langid, and leaves the default read as it was', async () => {
    const guide = await guideWithSteps('Battery swap');
    // Reputation for the new guide is awarded in the background: settled, the bodies compared
    // below show the same standing for the author.
    await api.settle();
    const before = await anonymous(`/guides/${guide.guideid}`);
    const beforeBody = (await before.json()) as Record<string, unknown>;

    const started = await patch(`/guides/${guide.guideid}?langid=de&revisionid=${guide.revisionid}`, { title: 'Akkutausch', summary: 'Tausche ihn aus.' });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ guideid: guide.guideid, title: 'Akkutausch', summary: 'Tausche ihn aus.', introduction_raw: 'An intro.', langid: 'de', locale: 'de', available_langids: ['de', 'en'] });
    expect(started.body.revisionid).toBeGreaterThan(guide.revisionid);
    const [row] = await api.sql('SELECT revisionid, source_revisionid, title FROM guide_translations WHERE guide_id = $1 AND langid = $2', [guide.guideid, 'de']);
    expect(row).toEqual({ revisionid: started.body.revisionid, source_revisionid: guide.revisionid, title: 'Akkutausch' });

    // The translation, read anonymously and signed in.
    for (const token of [undefined, bob]) {
      const de = await get(`/guides/${guide.guideid}?langid=de`, token);
      expect(de.status).toBe(200);
      expect(de.body).toMatchObject({ title: 'Akkutausch', langid: 'de', revisionid: started.body.revisionid, available_langids: ['de', 'en'] });
      expect(de.body.steps.map((s: { lines: { text_raw: string }[] }) => s.lines[0]!.text_raw)).toEqual(['Remove the screws.', 'Lift the battery.']);
    }

    // The default read: the source's text, its own revision, and the new language listed (cached bodies included).
    await api.settle();
    for (let i = 0; i < 2; i++) {
      const res = await anonymous(`/guides/${guide.guideid}`);
      const body = await res.json();
      expect(body).toEqual({ ...beforeBody, available_langids: ['de', 'en'] });
      expect(res.headers.get('etag')).not.toBe(before.headers.get('etag'));
    }
    const en = await get(`/guides/${guide.guideid}?langid=en`);
    expect(en.body).toMatchObject({ title: 'Battery swap', langid: 'en', revisionid: guide.revisionid });
  });

  it('translates steps line by line; bullets, levels and media stay the source step\'s', async () => {
    const guide = await guideWithSteps('Screen swap');
    const step = guide.steps[0]!;
    const res = await patch(`/guides/${guide.guideid}/steps/${step.stepid}?langid=fr&revisionid=${step.revisionid}`, { title: 'Vis', lines: ['Retirez les vis.', { text: 'Gardez-les.', bullet: 'black', level: 0 }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stepid: step.stepid, title: 'Vis', lines: [{ text_raw: 'Retirez les vis.', bullet: 'black', level: 0 }, { text_raw: 'Gardez-les.', bullet: 'icon_note', level: 1 }] });
    expect(res.body.revisionid).not.toBe(step.revisionid);

    const fr = (await get(`/guides/${guide.guideid}?langid=fr`)).body;
    expect(fr.langid).toBe('fr');
    expect(fr.title).toBe('Screen swap');
    expect(fr.steps[0]).toMatchObject({ title: 'Vis', revisionid: res.body.revisionid, lines: [{ text_raw: 'Retirez les vis.' }, { text_raw: 'Gardez-les.' }] });
    expect(fr.steps[1]).toMatchObject({ revisionid: guide.steps[1]!.revisionid, lines: [{ text_raw: 'Lift the battery.' }] });
    // The source step is untouched.
    const source = (await get(`/guides/${guide.guideid}`)).body;
    expect(source.steps[0]).toMatchObject({ revisionid: step.revisionid, title: '', lines: [{ text_raw: 'Remove the screws.' }, { text_raw: 'Keep them.' }] });

    // The wrong number of lines, and shared fields: 422.
    const wrong = await patch(`/guides/${guide.guideid}/steps/${step.stepid}?langid=fr&revisionid=${res.body.revisionid}`, { lines: ['Une seule.'] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].field).toBe('lines');
    expect((await patch(`/guides/${guide.guideid}/steps/${step.stepid}?langid=fr&revisionid=${res.body.revisionid}`, { media: null })).status).toBe(422);
    // A stale step revision in that language: 409 with the step as that language shows it.
    const stale = await patch(`/guides/${guide.guideid}/steps/${step.stepid}?langid=fr&revisionid=${step.revisionid}`, { title: 'Autre' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ stepid: step.stepid, title: 'Vis', revisionid: res.body.revisionid });
  });

  it('checks the translation\'s revision: a stale one is a 409 whose body is the guide in that language', async () => {
    const guide = await guideWithSteps('Fan cleaning');
    // Starting needs the source's current revision.
    const early = await patch(`/guides/${guide.guideid}?langid=es&revisionid=${guide.revisionid - 1}`, { title: 'Limpieza' });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ langid: 'en', title: 'Fan cleaning', revisionid: guide.revisionid });

    const first = await patch(`/guides/${guide.guideid}?langid=es&revisionid=${guide.revisionid}`, { title: 'Limpieza del ventilador' });
    expect(first.status).toBe(200);
    const second = await patch(`/guides/${guide.guideid}?langid=es&revisionid=${first.body.revisionid}`, { summary: 'Quita el polvo.' });
    expect(second.status).toBe(200);
    expect(second.body.revisionid).toBeGreaterThan(first.body.revisionid);

    const stale = await patch(`/guides/${guide.guideid}?langid=es&revisionid=${first.body.revisionid}`, { title: 'Otro' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ langid: 'es', title: 'Limpieza del ventilador', summary: 'Quita el polvo.', revisionid: second.body.revisionid });
    // Its ETag works as If-Match, as the guide's own.
    const etag = (await get(`/guides/${guide.guideid}?langid=es`)).headers.get('etag')!;
    const matched = await api.request('PATCH', `/guides/${guide.guideid}?langid=es`, { token: alice, body: { title: 'Ventilador' }, headers: { 'If-Match': etag } });
    expect(matched.status).toBe(200);
    // A no-op keeps the revision.
    const same = await patch(`/guides/${guide.guideid}?langid=es&revisionid=${matched.body.revisionid}`, { title: 'Ventilador' });
    expect(same.body.revisionid).toBe(matched.body.revisionid);
    // A translation edit does not move the source's revision (writes in the source language stay valid).
    expect((await patch(`/guides/${guide.guideid}?revisionid=${guide.revisionid}`, { summary: 'Clean the fan.' })).status).toBe(200);
  });

  it('refuses shared fields, unknown languages, outsiders and missing guides with clear answers', async () => {
    const guide = await guideWithSteps('Port cleaning');
    const shared = await patch(`/guides/${guide.guideid}?langid=it&revisionid=${guide.revisionid}`, { title: 'Pulizia', category: 'iPhone 12', difficulty: 'Easy' });
    expect(shared.status).toBe(422);
    expect(shared.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['category', 'difficulty']);
    expect(shared.body.message).toMatch(/shared by every language/);

    for (const bad of ['xx', 'english', 'DE', '1']) {
      const res = await get(`/guides/${guide.guideid}?langid=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/not a language code/);
      expect((await patch(`/guides/${guide.guideid}?langid=${bad}&revisionid=${guide.revisionid}`, { title: 'x' })).status).toBe(400);
    }
    expect((await patch(`/guides/${guide.guideid}?langid=it&revisionid=${guide.revisionid}`, { title: 'Pulizia' }, bob)).status).toBe(403);
    expect((await api.request('PATCH', `/guides/${guide.guideid}?langid=it&revisionid=${guide.revisionid}`, { body: { title: 'Pulizia' } })).status).toBe(401);
    expect((await patch(`/guides/999999?langid=it&revisionid=1`, { title: 'Pulizia' })).status).toBe(404);
    // source_revisionid: a revision of this guide, and only with langid.
    expect((await patch(`/guides/${guide.guideid}?langid=it&revisionid=${guide.revisionid}`, { title: 'Pulizia', source_revisionid: 1 })).status).toBe(422);
    expect((await patch(`/guides/${guide.guideid}?revisionid=${guide.revisionid}`, { source_revisionid: guide.revisionid })).status).toBe(422);
    expect(await api.sql('SELECT 1 FROM guide_translations WHERE guide_id = $1', [guide.guideid])).toEqual([]);
  });

  it('lists the translators of the language shown with their share of its revisions; none in the guide\'s own language', async () => {
    const [aliceId, bobUser] = [(await get('/user', alice)).body.userid as number, (await get('/user', bob)).body as { userid: number; username: string }];
    const guide = await guideWithSteps('Translated by two');
    expect((await api.request('PUT', `/guides/${guide.guideid}/users/${bobUser.userid}`, { token: alice })).status).toBe(201);
    const shares = (body: { translators: { userid: number; percent: number }[] }) => body.translators.map((t) => [t.userid, t.percent]);

    // Alice starts the German translation: the write's own answer counts its revision.
    const started = await patch(`/guides/${guide.guideid}?langid=de&revisionid=${guide.revisionid}`, { title: 'Von zweien übersetzt' });
    expect(started.status).toBe(200);
    expect(shares(started.body)).toEqual([[aliceId, 100]]);
    // Bob translates the summary and a step: two revisions of the translation.
    const edited = await patch(`/guides/${guide.guideid}?langid=de&revisionid=${started.body.revisionid}`, { summary: 'Tausche ihn aus.' }, bob);
    expect(shares(edited.body)).toEqual([[aliceId, 50], [bobUser.userid, 50]]);
    const step = edited.body.steps[1];
    expect((await patch(`/guides/${guide.guideid}/steps/${step.stepid}?langid=de&revisionid=${step.revisionid}`, { lines: ['Hebe den Akku an.'] }, bob)).status).toBe(200);
    // Bob alone translates it into French.
    expect((await patch(`/guides/${guide.guideid}?langid=fr&revisionid=${guide.revisionid}`, { title: 'Traduit' }, bob)).status).toBe(200);

    for (const token of [undefined, alice]) {
      const de = await get(`/guides/${guide.guideid}?langid=de`, token);
      expect(de.status).toBe(200);
      expect(Object.keys(de.body).sort()).toEqual(GUIDE_KEYS);
      // Whoever started it first, then by share: each a user summary with `percent`, as contributors are.
      expect(shares(de.body)).toEqual([[aliceId, 33], [bobUser.userid, 67]]);
      expect(de.body.translators[1]).toMatchObject({ username: bobUser.username, profile_url: de.body.translators[1].url, avatar_url: null });
      expect(Object.keys(de.body.translators[1]).sort()).toEqual(Object.keys(de.body.contributors[0]).sort());
      // Translating is not editing the guide: its contributors are its own editors.
      expect(de.body.contributors.map((c: { userid: number; percent: number }) => [c.userid, c.percent])).toEqual([[aliceId, 100]]);
      expect(shares((await get(`/guides/${guide.guideid}?langid=fr`, token)).body)).toEqual([[bobUser.userid, 100]]);
      // Its own language (with or without langid), and a language it has no translation in (the source shows).
      for (const path of [`/guides/${guide.guideid}`, `/guides/${guide.guideid}?langid=en`, `/guides/${guide.guideid}?langid=it`]) {
        expect((await get(path, token)).body.translators).toEqual([]);
      }
    }
    // The cached anonymous default body too.
    const cached = (await (await anonymous(`/guides/${guide.guideid}`)).json()) as { translators: unknown[]; contributors: unknown[] };
    expect([cached.translators, cached.contributors.length]).toEqual([[], 1]);
  });

  it('treats langid naming the guide\'s own language as a plain edit', async () => {
    const guide = await guideWithSteps('Plain edit');
    const res = await patch(`/guides/${guide.guideid}?langid=en&revisionid=${guide.revisionid}`, { title: 'Plain edit, renamed', difficulty: 'Easy' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Plain edit, renamed', difficulty: 'Easy', langid: 'en', available_langids: ['en'] });
    expect(await api.sql('SELECT 1 FROM guide_translations WHERE guide_id = $1', [guide.guideid])).toEqual([]);
  });

  it('reads a translation in a constant number of statements, whatever its steps and translated prerequisites', async () => {
    const translated = async (steps: number, prerequisites: number[] = []) => {
      const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: `Counted ${steps}`, public: true, prerequisites } });
      const id = created.body.guideid as number;
      for (let i = 0; i < steps; i++) await api.request('POST', `/guides/${id}/steps`, { token: alice, body: { lines: [{ text: `Step ${i}`, bullet: 'black', level: 0 }] } });
      const guide = (await get(`/guides/${id}`, alice)).body;
      for (const step of guide.steps.filter((s: { guideid: number }) => s.guideid === id)) {
        expect((await patch(`/guides/${id}/steps/${step.stepid}?langid=nl&revisionid=${step.revisionid}`, { lines: ['Stap'] })).status).toBe(200);
      }
      const current = (await get(`/guides/${id}?langid=nl`, alice)).body;
      expect((await patch(`/guides/${id}?langid=nl&revisionid=${current.revisionid}`, { title: `Geteld ${steps}` })).status).toBe(200);
      return id;
    };
    const count = async (path: string) => {
      await api.settle();
      const before = statements.length;
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.body.langid).toBe('nl');
      return statements.slice(before).filter((sql) => !/^(begin|commit|rollback)/i.test(sql.trim()) && !isEventDelivery(sql)).length;
    };
    const prereqA = await translated(2);
    const prereqB = await translated(2);
    const small = await translated(1, [prereqA]);
    const large = await translated(12, [prereqA, prereqB]);
    expect(await count(`/guides/${large}?langid=nl`)).toBe(await count(`/guides/${small}?langid=nl`));
    expect(await count(`/guides/${large}?langid=nl`)).toBeLessThanOrEqual(10);
    // The inlined prerequisites' steps in Dutch too.
    const body = (await get(`/guides/${large}?langid=nl`)).body;
    expect(body.steps.map((s: { lines: { text_raw: string }[] }) => s.lines[0]!.text_raw)).toEqual(Array(16).fill('Stap'));
  });

  it('keeps a private guide\'s translations private', async () => {
    const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'Secret' } });
    const id = created.body.guideid;
    expect((await patch(`/guides/${id}?langid=de&revisionid=${created.body.revisionid}`, { title: 'Geheim' })).status).toBe(200);
    expect((await get(`/guides/${id}?langid=de`)).status).toBe(403);
    expect((await get(`/guides/${id}?langid=de`, bob)).status).toBe(403);
    expect((await get(`/guides/${id}?langid=de`, alice)).body).toMatchObject({ title: 'Geheim', langid: 'de' });
  });
});
