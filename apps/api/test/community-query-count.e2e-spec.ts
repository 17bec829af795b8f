import { isEventDelivery } from './support/event-delivery.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

/**
 * No N+1 in comment threads and guide collaborator lists: a thread of many replies by many authors,
 * a page of many threads, and a guide with many collaborators or teams cost the statements that
 * their smallest versions cost (counted as guides-query-count.e2e-spec.ts counts them).
 */
describe('comment threads and guide collaborators run a constant number of SQL queries', () => {
  let api: TestApi;
  const statements: string[] = [];
  let admin: string;
  let alice: string;
  /** Ten registered users: their ids and tokens. */
  const people: { id: number; token: string }[] = [];

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    for (let i = 0; i < 10; i++) {
      const res = await api.request('POST', '/users', {
        appId: DEMO_APP_ID,
        body: { email: `reader${i}@example.com`, username: `Reader ${i}`, unique_username: `reader${i}`, password: 'reader-long-password' },
      });
      expect(res.status).toBe(201);
      people.push({ id: res.body.userid as number, token: res.body.authToken as string });
    }
  }, 120_000);
  afterAll(() => api.close());

  /** The statements of one read built anew (an anonymous answer kept with the content stamp is built again once the stamp turns). */
  async function queriesOf(path: string, token?: string): Promise<number> {
    if (!token) await api.sql('UPDATE comments SET text = text WHERE id = (SELECT min(id) FROM comments)');
    await api.settle();
    const before = statements.length;
    const res = await api.request('GET', path, { token, appId: token ? DEMO_APP_ID : undefined });
    expect(res.status).toBe(200);
    return statements.slice(before).filter((sql) => !/^(begin|commit|rollback)/i.test(sql.trim()) && !isEventDelivery(sql)).length;
  }

  async function guide(title: string): Promise<number> {
    const res = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title, public: true } });
    expect(res.status).toBe(201);
    return res.body.guideid as number;
  }

  /** A top-level comment on the guide with `replies` replies, each by the next of the ten users. */
  async function thread(guideid: number, replies: number): Promise<number> {
    const top = await api.request('POST', `/comments/guide/${guideid}`, { token: alice, body: { text: `A question with ${replies} replies` } });
    expect(top.status).toBe(201);
    for (let i = 0; i < replies; i++) {
      const reply = await api.request('POST', `/comments/guide/${guideid}`, { token: people[i % people.length]!.token, body: { text: `Answer ${i}`, parentid: top.body.commentid } });
      expect(reply.status).toBe(201);
    }
    return top.body.commentid as number;
  }

  it('GET /comments/{id}: a thread of 30 replies by 10 authors costs what a thread of 1 reply costs', async () => {
    const id = await guide('A guide with comments');
    const small = await thread(id, 1);
    const large = await thread(id, 30);
    const body = (await api.request('GET', `/comments/${large}`)).body as { replies: unknown[] };
    expect(body.replies).toHaveLength(30);
    const forSmall = await queriesOf(`/comments/${small}`);
    expect(forSmall).toBeGreaterThan(0);
    expect(await queriesOf(`/comments/${large}`)).toBe(forSmall);
    expect(await queriesOf(`/comments/${large}`, alice)).toBe(await queriesOf(`/comments/${small}`, alice));
  });

  it('GET /comments: a page of 40 threads with their replies costs what a page of 1 costs', async () => {
    const id = await guide('A guide with many threads');
    for (let i = 0; i < 8; i++) await thread(id, 3);
    expect(await queriesOf('/comments?limit=40')).toBe(await queriesOf('/comments?limit=1'));
    expect(await queriesOf(`/comments?context=guide&limit=40`)).toBe(await queriesOf('/comments?context=guide&limit=1'));
  });

  it('GET /guides/{id}: a guide with 3 threads of 10 replies by 11 authors costs a few statements, as a guide with 1 comment does', async () => {
    const busy = await guide('A busy guide');
    for (let i = 0; i < 3; i++) await thread(busy, 10);
    const quiet = await guide('A quiet guide');
    await thread(quiet, 0);
    // What a body needs built on the request depends on the read model's and the caches' state (a
    // quiet guide's may be served whole), so the busy guide is held to a bound: the guide, its
    // threads, and one batch each for the authors' standings, teams, users and images. An N+1 over
    // 30 replies or 11 authors would pass it many times over.
    expect(await queriesOf(`/guides/${busy}`)).toBeLessThanOrEqual(8);
    expect(await queriesOf(`/guides/${busy}`, alice)).toBeLessThanOrEqual(8);
    expect(await queriesOf(`/guides/${quiet}`)).toBeLessThanOrEqual(8);
  });

  it('GET /guides/{id}/users: 10 collaborators cost what 1 costs', async () => {
    const few = await guide('A guide with one collaborator');
    const many = await guide('A guide with ten collaborators');
    expect((await api.request('PUT', `/guides/${few}/users/${people[0]!.id}`, { token: admin })).status).toBe(201);
    for (const person of people) expect((await api.request('PUT', `/guides/${many}/users/${person.id}`, { token: admin })).status).toBe(201);
    expect((await api.request('GET', `/guides/${many}/users`, { token: admin, appId: DEMO_APP_ID })).body).toHaveLength(10);
    const forFew = await queriesOf(`/guides/${few}/users`, admin);
    expect(forFew).toBeGreaterThan(0);
    expect(await queriesOf(`/guides/${many}/users`, admin)).toBe(forFew);
  });

  it('GET /guides/{id}/teams: 8 teams cost what 1 team costs', async () => {
    const teams: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await api.request('POST', '/teams', { token: people[i]!.token, body: { name: `Team ${i}`, description: `The team of reader ${i}` } });
      expect(res.status).toBe(201);
      teams.push(res.body.teamid as number);
    }
    const few = await guide('A guide of one team');
    const many = await guide('A guide of eight teams');
    expect((await api.request('PUT', `/guides/${few}/teams/${teams[0]}`, { token: admin })).status).toBe(201);
    for (const team of teams) expect((await api.request('PUT', `/guides/${many}/teams/${team}`, { token: admin })).status).toBe(201);
    expect((await api.request('GET', `/guides/${many}/teams`, { token: admin, appId: DEMO_APP_ID })).body.guideTeams).toHaveLength(8);
    const forFew = await queriesOf(`/guides/${few}/teams`, admin);
    expect(forFew).toBeGreaterThan(0);
    expect(await queriesOf(`/guides/${many}/teams`, admin)).toBe(forFew);
  });
});
