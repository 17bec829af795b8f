import { isEventDelivery } from './support/event-delivery.js';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/** No N+1: reading a guide or a page of guides runs a fixed number of SQL statements, whatever its size. */
describe('guide reads run a constant number of SQL queries', () => {
  let api: TestApi;
  const statements: string[] = [];

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
  });
  afterAll(() => api.close());

  async function queriesOf(path: string, token?: string): Promise<number> {
    await api.settle();
    const before = statements.length;
    const res = await api.request('GET', path, { token });
    expect(res.status).toBe(200);
    // The request log line is written when the response finishes; the statements ran before it.
    return statements.slice(before).filter((sql) => !/^(begin|commit|rollback)/i.test(sql.trim()) && !isEventDelivery(sql)).length;
  }

  async function guideWithSteps(token: string, count: number, prerequisites: number[] = []): Promise<number> {
    const created = await api.request('POST', '/guides', { token, body: { category: 'iPhone 12', type: 'repair', title: `Guide of ${count} steps`, public: true, prerequisites } });
    expect(created.status).toBe(201);
    const id = created.body.guideid as number;
    for (let i = 0; i < count; i++) {
      const step = await api.request('POST', `/guides/${id}/steps`, { token, body: { lines: [{ text: `Step ${i}`, bullet: 'black', level: 0 }, { text: 'More', bullet: 'red', level: 1 }] } });
      expect(step.status).toBe(201);
    }
    // The writes above kept the body of the guide's last version: a change to the files of its
    // images would make a new one, built by the next read (what these counts are about).
    await api.sql('UPDATE guides SET media_stamp = media_stamp + 1 WHERE id = $1', [id]);
    return id;
  }

  it('GET /guides/{id}: 30 steps and 2 prerequisites cost what 1 step costs', async () => {
    const token = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    const small = await guideWithSteps(token, 1);
    const prereqA = await guideWithSteps(token, 3);
    const prereqB = await guideWithSteps(token, 3);
    const large = await guideWithSteps(token, 30, [prereqA, prereqB]);
    const smallWithPrereq = await guideWithSteps(token, 1, [prereqA]);

    const forSmall = await queriesOf(`/guides/${small}`);
    expect(forSmall).toBeGreaterThan(0);
    expect(await queriesOf(`/guides/${large}`)).toBe(await queriesOf(`/guides/${smallWithPrereq}`));
    expect(await queriesOf(`/guides/${large}`, token)).toBe(await queriesOf(`/guides/${smallWithPrereq}`, token));
    expect(await queriesOf(`/guides/${large}`)).toBeLessThanOrEqual(8);
  });

  it("PATCH /guides/{id}: the token, the locked read, one write with its revision and the webhooks outbox; the answer is the body of the new version, stored before it; authors kept", async () => {
    const token = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    const id = await guideWithSteps(token, 3);
    let revisionid = (await api.request('GET', `/guides/${id}`, { token })).body.revisionid as number;
    const patched: { sql: string[]; stored: string | undefined; revisionid: number }[] = [];
    const patch = async (summary: string) => {
      await api.settle();
      const before = statements.length;
      const res = await api.request('PATCH', `/guides/${id}?revisionid=${revisionid}`, { token, body: { summary } });
      expect(res.status).toBe(200);
      expect(res.body.summary).toBe(summary);
      expect(res.body.author.userid).toBe(res.body.contributors[0].userid);
      expect(res.body.can_edit).toBe(true);
      revisionid = res.body.revisionid as number;
      const sql = statements.slice(before).filter((q) => !/^(begin|commit|rollback)/i.test(q.trim()) && !isEventDelivery(q));
      // The read model's version of the guide as the answer left it (the version starts with the revision).
      const [row] = await api.sql<{ version: string }>('SELECT version FROM guide_bodies WHERE guide_id = $1 AND inline', [id]);
      patched.push({ sql, stored: row?.version, revisionid });
      return res.body as { steps: { stepid: number; comments: { text_raw: string }[] }[]; comments: { text_raw: string }[] };
    };
    const comments = (sql: readonly string[]) => sql.filter((q) => /\bcomments\b/i.test(q));
    for (const summary of ['First edit', 'Second edit', 'Third edit']) await patch(summary);
    // Once the author objects are kept (the first answer may look them up), a PATCH of a guide no one
    // ever commented on runs 4 statements through the ORM; its answer is the body of the new version
    // (the version and the writer's marks read, and the body stored, on the versions' own pool).
    for (const { sql, stored, revisionid: written } of patched.slice(1)) {
      expect(sql).toHaveLength(4);
      expect(sql.filter((q) => /from "?users"?|badge_awards|team_members|guide_marks/i.test(q))).toEqual([]);
      expect(comments(sql)).toEqual([]);
      expect(stored).toMatch(new RegExp(`^${written}\\.`));
    }
    // The next anonymous read serves that body: nothing is built, no statement through the ORM.
    expect(await queriesOf(`/guides/${id}`)).toBe(0);

    // Commented on (a step is enough), the answer is presented for the writer as before: it looks
    // the comments up and shows them, and the read model keeps its older version.
    const onStep = await api.request('GET', `/guides/${id}`, { token });
    const stepid = onStep.body.steps[1].stepid as number;
    expect((await api.request('POST', `/comments/step/${stepid}`, { token, body: { text: 'Mind the clip.' } })).status).toBe(201);
    revisionid = (await api.request('GET', `/guides/${id}`, { token })).body.revisionid as number;
    await patch('Fourth edit');
    const answer = await patch('Fifth edit');
    expect(answer.steps[1]!.comments.map((c) => c.text_raw)).toEqual(['Mind the clip.']);
    expect(patched.at(-1)!.sql).toHaveLength(6);
    expect(comments(patched.at(-1)!.sql)).toHaveLength(1);
    expect(patched.at(-1)!.stored).not.toMatch(new RegExp(`^${revisionid}\\.`));
  });

  it('GET /guides: a page of 50 costs what a page of 2 costs', async () => {
    expect(await queriesOf('/guides?limit=50')).toBe(await queriesOf('/guides?limit=2'));
    // The guides, their authors' names, the Image objects they show (one statement each), and the page's own.
    expect(await queriesOf('/guides?limit=50')).toBeLessThanOrEqual(4);
  });
});
