import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

type Item = { wikiid: number; displayTitle: string; url: string };

/** A team's repair services: wiki pages the team lists in its order, read by members, changed by the owner or an Admin. */
describe('teams over HTTP: repair services', () => {
  let api: TestApi;
  let admin: string;
  let alice: string;
  let bob: string;
  let stranger: string;
  let guild: number;
  const pages: Record<string, number> = {};

  const path = (teamId: number | string, rest = '') => `/teams/${teamId}/repair_services${rest}`;
  const ids = (body: Item[]) => body.map((i) => i.wikiid);

  beforeAll(async () => {
    api = await startTestApi({ PUBLIC_BASE_URL: 'https://repair.example.org' });
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
    const account = { email: 'stranger@example.com', username: 'Stranger', unique_username: 'stranger', password: 'stranger-test-password' };
    stranger = (await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account })).body.authToken;
    guild = ((await api.request('GET', '/teams')).body as { teamid: number; name: string }[]).find((t) => t.name === 'Fixers Guild')!.teamid;
    for (const title of ['Screen Repair Service', 'Battery Service', 'Water Damage Service']) {
      const res = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'INFO', title } });
      pages[title] = res.body.wikiid;
    }
  });
  afterAll(() => api.close());

  it('starts empty; the owner adds pages (appended, once each) and members read them with their display title and URL', async () => {
    expect(await api.request('GET', path(guild), { token: alice })).toMatchObject({ status: 200, body: [] });
    const first = await api.request('POST', path(guild), { token: alice, body: { wikiid: pages['Screen Repair Service'] } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual([{ wikiid: pages['Screen Repair Service'], displayTitle: 'Screen Repair Service', url: 'https://repair.example.org/Wiki/Screen_Repair_Service' }]);
    await api.request('POST', path(guild), { token: alice, body: { wikiid: pages['Battery Service'] } });
    const again = await api.request('POST', path(guild), { token: admin, body: { wikiid: pages['Screen Repair Service'] } });
    expect(ids(again.body)).toEqual([pages['Screen Repair Service'], pages['Battery Service']]);
    const read = await api.request('GET', path(guild), { token: bob });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(again.body);
  });

  it('reorders with PUT (every listed page once) and removes with DELETE', async () => {
    await api.request('POST', path(guild), { token: alice, body: { wikiid: pages['Water Damage Service'] } });
    const order = [pages['Water Damage Service'], pages['Screen Repair Service'], pages['Battery Service']];
    const put = await api.request('PUT', path(guild), { token: alice, body: { wikiids: order } });
    expect(put.status).toBe(200);
    expect(ids(put.body)).toEqual(order);
    for (const wikiids of [[order[0]], [...order, order[0]], [order[0], order[1], 999999], 'all', [0, 1, 2]]) {
      const res = await api.request('PUT', path(guild), { token: alice, body: { wikiids } });
      expect({ wikiids, status: res.status, field: res.body.errors?.[0]?.field }).toEqual({ wikiids, status: 422, field: 'wikiids' });
    }
    const removed = await api.request('DELETE', path(guild, `/${pages['Screen Repair Service']}`), { token: alice });
    expect(removed.status).toBe(200);
    expect(ids(removed.body)).toEqual([pages['Water Damage Service'], pages['Battery Service']]);
    expect(await api.request('DELETE', path(guild, `/${pages['Screen Repair Service']}`), { token: alice })).toMatchObject({ status: 404, body: { error: true, message: 'Repair service not found' } });
    expect((await api.request('DELETE', path(guild, '/abc'), { token: alice })).status).toBe(404);
  });

  it('leaves out pages deleted since', async () => {
    const page = (await api.request('GET', '/wikis/INFO/Battery_Service')).body;
    expect((await api.request('DELETE', `/wikis/INFO/Battery_Service?revisionid=${page.revisionid}`, { token: admin })).status).toBe(204);
    expect(ids((await api.request('GET', path(guild), { token: alice })).body)).toEqual([pages['Water Damage Service']]);
    // A page no longer live cannot be added again.
    expect((await api.request('POST', path(guild), { token: alice, body: { wikiid: pages['Battery Service'] } })).status).toBe(422);
  });

  it('refuses: 401 without a token, 403 to non-members (read) and non-owners (write), 404 for an unknown team, 422 for a bad or unknown page', async () => {
    expect((await api.request('GET', path(guild))).status).toBe(401);
    expect((await api.request('POST', path(guild), { body: { wikiid: 1 } })).status).toBe(401);
    expect(await api.request('GET', path(guild), { token: stranger })).toMatchObject({ status: 403, body: { error: true } });
    const before = ids((await api.request('GET', path(guild), { token: alice })).body);
    for (const [method, body, rest] of [
      ['POST', { wikiid: pages['Screen Repair Service'] }, ''],
      ['PUT', { wikiids: before }, ''],
      ['DELETE', undefined, `/${before[0]}`],
    ] as const) {
      for (const token of [bob, stranger]) expect((await api.request(method, path(guild, rest), { token, body })).status).toBe(403);
    }
    expect(ids((await api.request('GET', path(guild), { token: alice })).body)).toEqual(before);
    expect(await api.request('GET', path(999999), { token: admin })).toMatchObject({ status: 404, body: { error: true, message: 'Team not found' } });
    expect((await api.request('GET', path('x'), { token: admin })).status).toBe(404);
    for (const body of [{ wikiid: 'one' }, { wikiid: 0 }, {}, { wikiid: 999999 }]) {
      const res = await api.request('POST', path(guild), { token: alice, body });
      expect({ body, status: res.status, field: res.body.errors?.[0]?.field }).toEqual({ body, status: 422, field: 'wikiid' });
    }
    expect((await api.request('POST', path(guild), { token: alice, body: { wikiid: 1, extra: true } })).status).toBe(422);
    expect(ids((await api.request('GET', path(guild), { token: alice })).body)).toEqual(before);
  });
});
