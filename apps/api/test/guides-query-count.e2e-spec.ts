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

  it('PATCH /guides/{id}: the token, the locked read, one write with its revision, the webhooks outbox, and the answer\'s comments (once there are any) and marks; authors kept', async () => {
    const token = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    const id = await guideWithSteps(token, 3);
    let revisionid = (await api.request('GET', `/guides/${id}`, { token })).body.revisionid as number;
    const patched: string[][] = [];
    const patch = async (summary: string) => {
      await api.settle();
      const before = statements.length;
      const res = await api.request('PATCH', `/guides/${id}?revisionid=${revisionid}`, { token, body: { summary } });
      expect(res.status).toBe(200);
      expect(res.body.summary).toBe(summary);
      expect(res.body.author.userid).toBe(res.body.contributors[0].userid);
      revisionid = res.body.revisionid as number;
      patched.push(statements.slice(before).filter((sql) => !/^(begin|commit|rollback)/i.test(sql.trim()) && !isEventDelivery(sql)));
      return res.body as { steps: { stepid: number; comments: { text_raw: string }[] }[]; comments: { text_raw: string }[] };
    };
    for (const summary of ['First edit', 'Second edit', 'Third edit']) await patch(summary);
    const comments = (sql: readonly string[]) => sql.filter((q) => /\bcomments\b/i.test(q));
    // Once the author objects are kept (the first answer may look them up), a PATCH costs 5 statements:
    // a guide no one ever commented on has no comments to look up.
    for (const sql of patched.slice(1)) {
      expect(sql).toHaveLength(5);
      expect(sql.filter((q) => /from "?users"?|badge_awards|team_members/i.test(q))).toEqual([]);
      expect(comments(sql)).toEqual([]);
    }
    // Commented on (a step is enough), the answer looks its comments up and shows them.
    const onStep = await api.request('GET', `/guides/${id}`, { token });
    const stepid = onStep.body.steps[1].stepid as number;
    expect((await api.request('POST', `/comments/step/${stepid}`, { token, body: { text: 'Mind the clip.' } })).status).toBe(201);
    revisionid = (await api.request('GET', `/guides/${id}`, { token })).body.revisionid as number;
    await patch('Fourth edit');
    const answer = await patch('Fifth edit');
    expect(answer.steps[1]!.comments.map((c) => c.text_raw)).toEqual(['Mind the clip.']);
    expect(patched.at(-1)).toHaveLength(6);
    expect(comments(patched.at(-1)!)).toHaveLength(1);
  });

  it('GET /guides: a page of 50 costs what a page of 2 costs', async () => {
    expect(await queriesOf('/guides?limit=50')).toBe(await queriesOf('/guides?limit=2'));
    // The guides, their authors' names, the Image objects they show (one statement each), and the page's own.
    expect(await queriesOf('/guides?limit=50')).toBeLessThanOrEqual(4);
  });
});
