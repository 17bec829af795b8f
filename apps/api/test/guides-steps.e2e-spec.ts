import { DEMO_ACCOUNTS, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { STEP_KEYS } from './support/guide-shapes.js';
import { anImage, uploadImage } from './support/images.js';

type Who = 'alice' | 'bob' | 'admin';
type Line = { text: string; bullet?: string; level?: number };
type StepBody = { stepid: number; guideid: number; orderby: number; revisionid: number; title: string; lines: { text_raw: string; level: number; bullet: string }[] };

const line = (text: string, level = 0, bullet = 'black'): Line => ({ text, bullet, level });
/** The `field`s listed by a 422 body. */
const fieldsOf = (res: ApiResponse) => [...new Set(((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field))];
const textsOf = (steps: StepBody[]) => steps.map((s) => s.lines[0]!.text_raw);

describe('guides over HTTP: steps', () => {
  let api: TestApi;
  const token: Record<Who, string> = { alice: '', bob: '', admin: '' };
  let serial = 0;

  const newGuide = async (who: Who = 'alice', body: Record<string, unknown> = {}) => {
    serial += 1;
    const res = await api.request('POST', '/guides', { token: token[who], body: { category: 'iPhone 12', type: 'repair', title: `Steps guide ${serial}`, public: true, ...body } });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { guideid: number; revisionid: number };
  };

  const postStep = (guideid: number | string, body: unknown, who: Who | null = 'alice', query = '') =>
    api.request('POST', `/guides/${guideid}/steps${query}`, { token: who ? token[who] : undefined, body });

  /** A guide with steps whose first lines are the given texts. */
  const guideWithSteps = async (texts: string[], who: Who = 'alice') => {
    const guide = await newGuide(who);
    for (const text of texts) {
      const res = await postStep(guide.guideid, { lines: [line(text)] }, who);
      if (res.status !== 201) throw new Error(`add step failed: ${res.status} ${res.text}`);
    }
    // Its reputation is awarded in the background: settled, reads before and after a refused write compare whole.
    await api.settle();
    return guide.guideid;
  };

  const read = async (guideid: number, who: Who = 'alice') => {
    const res = await api.request('GET', `/guides/${guideid}?excludePrerequisiteSteps`, { token: token[who] });
    expect(res.status).toBe(200);
    return res.body as { revisionid: number; steps: StepBody[] };
  };

  const patchStep = (guideid: number | string, stepid: number | string, revisionid: number | string | null, body: unknown, who: Who | null = 'alice') =>
    api.request('PATCH', `/guides/${guideid}/steps/${stepid}${revisionid === null ? '' : `?revisionid=${revisionid}`}`, { token: who ? token[who] : undefined, body });
  const deleteStep = (guideid: number | string, stepid: number | string, revisionid: number | string | null, who: Who | null = 'alice') =>
    api.request('DELETE', `/guides/${guideid}/steps/${stepid}${revisionid === null ? '' : `?revisionid=${revisionid}`}`, { token: who ? token[who] : undefined });
  const steporder = (guideid: number, revisionid: number | string | null, body: unknown, who: Who | null = 'alice') =>
    api.request('PUT', `/guides/${guideid}/steporder${revisionid === null ? '' : `?revisionid=${revisionid}`}`, { token: who ? token[who] : undefined, body });

  const revisionRows = async (id: number) => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM guide_revisions WHERE guide_id = $1', [id]))[0]!.n;
  const storedSteps = async (id: number) =>
    api.sql<{ id: number; orderby: number; revisionid: number }>('SELECT id, orderby, revisionid FROM guide_steps WHERE guide_id = $1 ORDER BY orderby', [id]);

  beforeAll(async () => {
    api = await startTestApi();
    for (const who of ['alice', 'bob', 'admin'] as const) token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
  });
  afterAll(() => api.close());

  describe('POST /guides/{id}/steps', () => {
    it('appends a step: 201, the full guide with the new step last, a new guide revision and a step revision', async () => {
      const guideid = await guideWithSteps(['First']);
      const before = await read(guideid);
      const res = await postStep(guideid, { title: '  Second step  ', lines: [line('Second', 0, 'red'), line('Nested', 1, 'icon_note')] });
      expect(res.status).toBe(201);
      expect(res.body.guideid).toBe(guideid);
      expect(res.body.revisionid).toBeGreaterThan(before.revisionid);
      expect(textsOf(res.body.steps)).toEqual(['First', 'Second']);
      const step = res.body.steps[1];
      expect(Object.keys(step).sort()).toEqual(STEP_KEYS);
      expect(step).toMatchObject({ guideid, orderby: 2, title: 'Second step', media: { type: 'image', data: [] }, comments: [] });
      expect(step.lines).toEqual([
        { text_raw: 'Second', text_rendered: 'Second', bullet: 'red', level: 0, lineid: null },
        { text_raw: 'Nested', text_rendered: 'Nested', bullet: 'icon_note', level: 1, lineid: null },
      ]);
      expect(step.revisionid).toBeGreaterThan(0);
      expect(step.revisionid).not.toBe(res.body.revisionid);
      // The first step is untouched.
      expect(res.body.steps[0]).toEqual(before.steps[0]);
      expect((await read(guideid)).steps).toEqual(res.body.steps);
    });

    it('answers the guide without inlined prerequisite steps', async () => {
      const prerequisite = await guideWithSteps(['Prerequisite step']);
      const guide = await newGuide('alice', { prerequisites: [prerequisite] });
      const res = await postStep(guide.guideid, { lines: [line('Own step')] });
      expect(res.status).toBe(201);
      expect(res.body.steps.map((s: StepBody) => s.guideid)).toEqual([guide.guideid]);
      expect(res.body.prerequisites.map((p: { guideid: number }) => p.guideid)).toEqual([prerequisite]);
    });

    it('inserts at orderby and moves later steps down', async () => {
      const guideid = await guideWithSteps(['A', 'B', 'C']);
      const first = await postStep(guideid, { lines: [line('Inserted first')], orderby: 1 });
      expect(first.status).toBe(201);
      expect(textsOf(first.body.steps)).toEqual(['Inserted first', 'A', 'B', 'C']);
      expect(first.body.steps.map((s: StepBody) => s.orderby)).toEqual([1, 2, 3, 4]);
      const middle = await postStep(guideid, { lines: [line('Inserted third')], orderby: 3 });
      expect(textsOf(middle.body.steps)).toEqual(['Inserted first', 'A', 'Inserted third', 'B', 'C']);
      const last = await postStep(guideid, { lines: [line('Inserted last')], orderby: 6 });
      expect(textsOf(last.body.steps)).toEqual(['Inserted first', 'A', 'Inserted third', 'B', 'C', 'Inserted last']);
      expect((await storedSteps(guideid)).map((s) => s.orderby)).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('refuses an orderby outside 1 … count + 1 (422, field orderby)', async () => {
      const guideid = await guideWithSteps(['A', 'B']);
      for (const orderby of [0, 4, -1, 1.5, '1', null]) {
        const res = await postStep(guideid, { lines: [line('Misplaced')], orderby });
        expect({ orderby, status: res.status, fields: fieldsOf(res) }).toEqual({ orderby, status: 422, fields: ['orderby'] });
      }
      expect((await storedSteps(guideid)).length).toBe(2);
    });

    it('needs a token (401); refuses others (403); unknown guide 404', async () => {
      const guideid = await guideWithSteps([]);
      expect((await postStep(guideid, { lines: [line('x')] }, null)).status).toBe(401);
      const bob = await postStep(guideid, { lines: [line('x')] }, 'bob');
      expect(bob.status).toBe(403);
      expect(bob.body).toMatchObject({ error: true, message: expect.any(String) });
      expect((await postStep(guideid, { lines: [line('By the admin')] }, 'admin')).status).toBe(201);
      for (const id of ['999999', 'abc']) {
        const res = await postStep(id, { lines: [line('x')] });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: true, message: 'Guide not found' });
      }
      expect(textsOf((await read(guideid)).steps)).toEqual(['By the admin']);
    });

    it('checks a guide revisionid when one is given: stale → 409 with the current guide', async () => {
      const guide = await newGuide();
      const ok = await postStep(guide.guideid, { lines: [line('With the current revision')] }, 'alice', `?revisionid=${guide.revisionid}`);
      expect(ok.status).toBe(201);
      // The author's reputation, which the guide shows, moves as the write's events are delivered:
      // once they are, the 409 body and the read after it show the same figures.
      await api.settle();
      const stale = await postStep(guide.guideid, { lines: [line('With a stale revision')] }, 'alice', `?revisionid=${guide.revisionid}`);
      expect(stale.status).toBe(409);
      expect(stale.body).toEqual(await read(guide.guideid));
      expect(textsOf((await read(guide.guideid)).steps)).toEqual(['With the current revision']);
    });

    it('enforces the line rules; each violation names the line index; nothing is written', async () => {
      const guideid = await guideWithSteps(['Existing']);
      const before = await read(guideid);
      const rows = await revisionRows(guideid);
      const cases: Array<[string, unknown, number | undefined]> = [
        ['no lines', undefined, undefined],
        ['empty list', [], undefined],
        ['not a list', 'Remove the screw.', undefined],
        ['nine lines', Array.from({ length: 9 }, (_, i) => line(`Line ${i}`)), undefined],
        ['empty text', [line('')], 0],
        ['blank text', [line('ok'), line('   ')], 1],
        ['351 characters', [line('ok'), line('ok'), line('x'.repeat(351))], 2],
        ['unknown bullet', [line('ok'), line('purple', 0, 'purple')], 1],
        ['level 3', [line('ok'), line('deeper', 1), line('deeper', 2), line('too deep', 3)], 3],
        ['negative level', [line('ok'), line('negative', -1)], 1],
        ['fractional level', [line('ok'), line('fraction', 0.5)], 1],
        ['first line indented', [line('indented', 1)], 0],
        ['jump of two levels', [line('ok'), line('jump', 2)], 1],
        ['jump after going back', [line('ok'), line('one', 1), line('zero', 0), line('two', 2)], 3],
        ['line not an object', [line('ok'), 'text'], 1],
        ['unknown line field', [line('ok'), { text: 'x', bullet: 'black', level: 0, colour: 'red' }], 1],
        ['text not a string', [{ text: 42, bullet: 'black', level: 0 }], 0],
      ];
      for (const [name, lines, index] of cases) {
        const res = await postStep(guideid, lines === undefined ? { title: 'No lines' } : { lines });
        expect({ name, status: res.status, fields: fieldsOf(res) }).toEqual({ name, status: 422, fields: ['lines'] });
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
        if (index !== undefined) expect({ name, index: res.body.errors[0].index }).toEqual({ name, index });
      }
      const after = await read(guideid);
      expect(after.revisionid).toBe(before.revisionid);
      expect(after.steps).toEqual(before.steps);
      expect(await revisionRows(guideid)).toBe(rows);
    });

    it('accepts the limits: 8 lines, 350 characters, levels 0-1-2 stepping back freely, default bullet', async () => {
      const guideid = await guideWithSteps([]);
      const eight = [line('a'), line('b', 1), line('c', 2), line('d', 0), line('e', 1), line('f', 2), line('g', 2), line('x'.repeat(350), 1)];
      const res = await postStep(guideid, { lines: eight });
      expect(res.status).toBe(201);
      expect(res.body.steps[0].lines.map((l: { level: number }) => l.level)).toEqual([0, 1, 2, 0, 1, 2, 2, 1]);
      expect(res.body.steps[0].lines[7].text_raw).toHaveLength(350);
      const plain = await postStep(guideid, { lines: [{ text: 'No bullet or level given' }] });
      expect(plain.status).toBe(201);
      expect(plain.body.steps[1].lines[0]).toMatchObject({ bullet: 'black', level: 0 });
      for (const bullet of ['black', 'red', 'orange', 'yellow', 'light_blue', 'blue', 'green', 'violet', 'icon_note', 'icon_caution', 'icon_reminder']) {
        expect((await postStep(guideid, { lines: [line(`Bullet ${bullet}`, 0, bullet)] })).status).toBe(201);
      }
    });

    it('refuses bad media and unknown step fields (422)', async () => {
      const guideid = await guideWithSteps([]);
      for (const media of [{ type: 'image', data: [1, 2, 3, 4] }, { type: 'image', data: ['a'] }, { type: 'sound', data: [] }, 'image', { type: 'object', data: -5 }]) {
        const res = await postStep(guideid, { lines: [line('ok')], media });
        expect({ media, status: res.status, fields: fieldsOf(res) }).toEqual({ media, status: 422, fields: ['media'] });
      }
      const unknown = await postStep(guideid, { lines: [line('ok')], text: 'not a step field' });
      expect(unknown.status).toBe(422);
      expect(fieldsOf(unknown)).toEqual(['text']);
      expect((await read(guideid)).steps).toEqual([]);
    });

    it('keeps every one of 10 concurrent additions, each at its own position', async () => {
      const guideid = await guideWithSteps([]);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => postStep(guideid, { lines: [line(`Concurrent ${i}`)] })));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
      const after = await read(guideid);
      expect(after.steps.map((s) => s.orderby)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(textsOf(after.steps).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Concurrent ${i}`).sort());
      const revisions = results.map((r) => r.body.revisionid as number);
      expect(new Set(revisions).size).toBe(10);
      expect(after.revisionid).toBe(Math.max(...revisions));
    });

    it('reports media as image (with Image objects), video or nothing', async () => {
      const guideid = await guideWithSteps([]);
      const [first, second] = [await uploadImage(api, token.alice), await uploadImage(api, token.alice)];
      const images = await postStep(guideid, { lines: [line('With images')], media: { type: 'image', data: [first.id, second.id] } });
      expect(images.status).toBe(201);
      expect(images.body.steps[0].media).toEqual({ type: 'image', data: [anImage(first.id), anImage(second.id)] });
      const video = await postStep(guideid, { lines: [line('With a video')], media: { type: 'object', data: 7 } });
      expect(video.body.steps[1].media).toEqual({ type: 'video', data: { objectid: 7 } });
      const none = await postStep(guideid, { lines: [line('Without media')], media: null });
      expect(none.body.steps[2].media).toEqual({ type: 'image', data: [] });
    });
  });

  describe('PATCH /guides/{id}/steps/{stepid}?revisionid=S', () => {
    it('edits a step: 200, the step, a new larger step revision and a new guide revision; other steps untouched', async () => {
      const guideid = await guideWithSteps(['One', 'Two']);
      const before = await read(guideid);
      const [one, two] = before.steps as [StepBody, StepBody];
      const res = await patchStep(guideid, two.stepid, two.revisionid, { title: 'Renamed', lines: [line('Two, edited'), line('More', 1, 'green')] });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(STEP_KEYS);
      expect(res.body).toMatchObject({ stepid: two.stepid, guideid, orderby: 2, title: 'Renamed' });
      expect(res.body.lines.map((l: { text_raw: string }) => l.text_raw)).toEqual(['Two, edited', 'More']);
      expect(res.body.revisionid).toBeGreaterThan(two.revisionid);
      const after = await read(guideid);
      expect(after.revisionid).toBeGreaterThan(before.revisionid);
      expect(after.steps[1]).toEqual(res.body);
      expect(after.steps[0]).toEqual(one);
    });

    it('edits only the parts given (title alone keeps the lines)', async () => {
      const guideid = await guideWithSteps(['Kept line']);
      const [step] = (await read(guideid)).steps as [StepBody];
      const res = await patchStep(guideid, step.stepid, step.revisionid, { title: 'Only the title' });
      expect(res.status).toBe(200);
      expect(res.body.title).toBe('Only the title');
      expect(res.body.lines.map((l: { text_raw: string }) => l.text_raw)).toEqual(['Kept line']);
    });

    it('keeps the step and guide revisions on a no-op edit', async () => {
      const guideid = await guideWithSteps(['Unchanged']);
      const before = await read(guideid);
      const step = before.steps[0]!;
      for (const body of [{}, { lines: [line('Unchanged')] }, { title: '' }]) {
        const res = await patchStep(guideid, step.stepid, step.revisionid, body);
        expect({ body, status: res.status, revisionid: res.body.revisionid }).toEqual({ body, status: 200, revisionid: step.revisionid });
      }
      expect((await read(guideid)).revisionid).toBe(before.revisionid);
    });

    it('requires the step revisionid (422); a stale one is a 409 whose body is the current step', async () => {
      const guideid = await guideWithSteps(['Original']);
      const [step] = (await read(guideid)).steps as [StepBody];
      for (const revisionid of [null, 'abc']) {
        const res = await patchStep(guideid, step.stepid, revisionid, { lines: [line('No revision')] });
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toEqual(['revisionid']);
      }
      const edited = await patchStep(guideid, step.stepid, step.revisionid, { lines: [line('Current')] });
      expect(edited.status).toBe(200);
      const stale = await patchStep(guideid, step.stepid, step.revisionid, { lines: [line('Stale')] });
      expect(stale.status).toBe(409);
      expect(stale.body).toEqual(edited.body);
      expect(stale.body).toEqual((await read(guideid)).steps[0]);
      // The guide revisionid is not the step's.
      const guideRevision = (await read(guideid)).revisionid;
      expect((await patchStep(guideid, step.stepid, guideRevision, { lines: [line('Guide revision')] })).status).toBe(409);
    });

    it('refuses step rule violations with the line index; nothing is written', async () => {
      const guideid = await guideWithSteps(['Original']);
      const before = await read(guideid);
      const step = before.steps[0]!;
      const res = await patchStep(guideid, step.stepid, step.revisionid, { title: 'Changed too', lines: [line('ok'), line('ok', 1), line('too deep', 3)] });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'lines', index: 2 })]);
      expect((await patchStep(guideid, step.stepid, step.revisionid, { lines: [] })).status).toBe(422);
      expect((await patchStep(guideid, step.stepid, step.revisionid, { lines: [line('ok')], colour: 'red' })).status).toBe(422);
      expect(await read(guideid)).toEqual(before);
    });

    it('401 without token, 403 for others, 404 for an unknown step or a step of another guide', async () => {
      const guideid = await guideWithSteps(['Mine']);
      const otherGuide = await guideWithSteps(['Other']);
      const [step] = (await read(guideid)).steps as [StepBody];
      const [other] = (await read(otherGuide)).steps as [StepBody];
      expect((await patchStep(guideid, step.stepid, step.revisionid, { title: 'x' }, null)).status).toBe(401);
      expect((await patchStep(guideid, step.stepid, step.revisionid, { title: 'x' }, 'bob')).status).toBe(403);
      for (const [g, s] of [
        [guideid, 999999],
        [guideid, 'abc'],
        [guideid, other.stepid],
        [999999, step.stepid],
      ] as const) {
        const res = await patchStep(g, s, step.revisionid, { title: 'x' });
        expect({ g, s, status: res.status }).toEqual({ g, s, status: 404 });
      }
      expect((await patchStep(guideid, step.stepid, step.revisionid, { title: 'By the admin' }, 'admin')).status).toBe(200);
    });

    it('does not edit or delete a prerequisite\'s step through the including guide (404)', async () => {
      const prerequisite = await guideWithSteps(['Prerequisite step']);
      const guide = await newGuide('alice', { prerequisites: [prerequisite] });
      const inlined = (await api.request('GET', `/guides/${guide.guideid}`, { token: token.alice })).body.steps[0] as StepBody;
      expect(inlined.guideid).toBe(prerequisite);
      expect((await patchStep(guide.guideid, inlined.stepid, inlined.revisionid, { title: 'x' })).status).toBe(404);
      expect((await deleteStep(guide.guideid, inlined.stepid, inlined.revisionid)).status).toBe(404);
      expect((await read(prerequisite)).steps).toHaveLength(1);
    });

    it('lets exactly one of 10 concurrent edits with the same step revisionid win', async () => {
      const guideid = await guideWithSteps(['Contended']);
      const [step] = (await read(guideid)).steps as [StepBody];
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => patchStep(guideid, step.stepid, step.revisionid, { lines: [line(`Edit ${i}`)] })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(9);
      const winner = results.find((r) => r.status === 200)!.body;
      expect((await read(guideid)).steps[0]).toEqual(winner);
    });
  });

  describe('DELETE /guides/{id}/steps/{stepid}?revisionid=S', () => {
    it('removes the step: 200, the guide without it, the rest renumbered, a new guide revision', async () => {
      const guideid = await guideWithSteps(['A', 'B', 'C']);
      const before = await read(guideid);
      const b = before.steps[1]!;
      const res = await deleteStep(guideid, b.stepid, b.revisionid);
      expect(res.status).toBe(200);
      expect(res.body.guideid).toBe(guideid);
      expect(textsOf(res.body.steps)).toEqual(['A', 'C']);
      expect(res.body.steps.map((s: StepBody) => s.orderby)).toEqual([1, 2]);
      expect(res.body.revisionid).toBeGreaterThan(before.revisionid);
      expect((await storedSteps(guideid)).map((s) => s.id)).toEqual([before.steps[0]!.stepid, before.steps[2]!.stepid]);
      expect((await patchStep(guideid, b.stepid, b.revisionid, { title: 'x' })).status).toBe(404);
    });

    it('requires the step revisionid (422); stale → 409 with the current step; 401, 403, 404', async () => {
      const guideid = await guideWithSteps(['Only']);
      const [step] = (await read(guideid)).steps as [StepBody];
      const missing = await deleteStep(guideid, step.stepid, null);
      expect(missing.status).toBe(422);
      expect(fieldsOf(missing)).toEqual(['revisionid']);
      const edited = await patchStep(guideid, step.stepid, step.revisionid, { lines: [line('Edited')] });
      const stale = await deleteStep(guideid, step.stepid, step.revisionid);
      expect(stale.status).toBe(409);
      expect(stale.body).toEqual(edited.body);
      expect((await deleteStep(guideid, step.stepid, edited.body.revisionid, null)).status).toBe(401);
      expect((await deleteStep(guideid, step.stepid, edited.body.revisionid, 'bob')).status).toBe(403);
      expect((await deleteStep(guideid, 999999, edited.body.revisionid)).status).toBe(404);
      expect((await read(guideid)).steps).toHaveLength(1);
    });
  });

  describe('PUT /guides/{id}/steporder?revisionid=N', () => {
    it('reorders: 200, the guide in the new order, renumbered, a new revision; step revisions unchanged', async () => {
      const guideid = await guideWithSteps(['A', 'B', 'C']);
      const before = await read(guideid);
      const [a, b, c] = before.steps as [StepBody, StepBody, StepBody];
      const res = await steporder(guideid, before.revisionid, { stepids: [c.stepid, a.stepid, b.stepid] });
      expect(res.status).toBe(200);
      expect(textsOf(res.body.steps)).toEqual(['C', 'A', 'B']);
      expect(res.body.steps.map((s: StepBody) => s.orderby)).toEqual([1, 2, 3]);
      expect(res.body.revisionid).toBeGreaterThan(before.revisionid);
      expect(res.body.steps.map((s: StepBody) => [s.stepid, s.revisionid])).toEqual([c, a, b].map((s) => [s.stepid, s.revisionid]));
      expect((await storedSteps(guideid)).map((s) => s.id)).toEqual([c.stepid, a.stepid, b.stepid]);
      expect((await read(guideid)).steps).toEqual(res.body.steps);
    });

    it('keeps the revisionid when the order does not change', async () => {
      const guideid = await guideWithSteps(['A', 'B']);
      const before = await read(guideid);
      const res = await steporder(guideid, before.revisionid, { stepids: before.steps.map((s) => s.stepid) });
      expect(res.status).toBe(200);
      expect(res.body.revisionid).toBe(before.revisionid);
    });

    it('refuses anything but a permutation of the guide\'s own steps (422, field stepids); nothing written', async () => {
      const guideid = await guideWithSteps(['A', 'B', 'C']);
      const otherGuide = await guideWithSteps(['Other']);
      const before = await read(guideid);
      const [a, b, c] = before.steps.map((s) => s.stepid) as [number, number, number];
      const [other] = (await read(otherGuide)).steps.map((s) => s.stepid) as [number];
      for (const stepids of [[a, b], [a, b, b], [a, b, c, other], [a, b, other], [a, b, c, c], [String(a), String(b), String(c)], 'a,b,c', [], null]) {
        const res = await steporder(guideid, before.revisionid, { stepids });
        expect({ stepids, status: res.status, fields: fieldsOf(res) }).toEqual({ stepids, status: 422, fields: ['stepids'] });
      }
      expect((await steporder(guideid, before.revisionid, {})).status).toBe(422);
      const unknown = await steporder(guideid, before.revisionid, { stepids: [c, b, a], order: 'x' });
      expect(unknown.status).toBe(422);
      expect(fieldsOf(unknown)).toEqual(['order']);
      expect(await read(guideid)).toEqual(before);
    });

    it('requires revisionid (422); stale → 409 with the current guide; 401, 403, 404', async () => {
      const guideid = await guideWithSteps(['A', 'B']);
      const before = await read(guideid);
      const reversed = { stepids: before.steps.map((s) => s.stepid).reverse() };
      const missing = await steporder(guideid, null, reversed);
      expect(missing.status).toBe(422);
      expect(fieldsOf(missing)).toEqual(['revisionid']);
      expect((await steporder(guideid, before.revisionid, reversed, null)).status).toBe(401);
      expect((await steporder(guideid, before.revisionid, reversed, 'bob')).status).toBe(403);
      const stale = await steporder(guideid, before.revisionid - 1, reversed);
      expect(stale.status).toBe(409);
      expect(stale.body).toEqual(before);
      expect((await api.request('PUT', `/guides/999999/steporder?revisionid=1`, { token: token.alice, body: reversed })).status).toBe(404);
      expect(await read(guideid)).toEqual(before);
    });
  });
});
