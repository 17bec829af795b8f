import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

/** Retries an assertion until it holds: events reach reputation after the write's commit, not in it. */
async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const BADGE_KEYS = ['badgeid', 'category', 'description', 'icon', 'image', 'multiple', 'name', 'num_users', 'secondary_color', 'type'];

describe('reputation and badges', () => {
  let api: TestApi;
  let admin: string;

  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
  });
  afterAll(() => api.close());

  async function register(name: string): Promise<{ token: string; userid: number }> {
    const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: { email: `${name}@example.com`, username: name, unique_username: name, password: `${name}-password-123` } });
    expect(res.status).toBe(201);
    return { token: res.body.authToken, userid: res.body.userid };
  }

  describe('GET /badges (the catalogue, an extension)', () => {
    it('lists the enabled badges by id with the reference fields', async () => {
      const res = await api.request('GET', '/badges');
      expect(res.status).toBe(200);
      expect(res.body.map((b: { badgeid: number }) => b.badgeid)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      for (const badge of res.body) expect(Object.keys(badge).sort()).toEqual(BADGE_KEYS);
      expect(res.body[0]).toMatchObject({ name: 'Author', type: 'bronze', category: 'badgeGuide', multiple: false });
      expect(res.body.find((b: { name: string }) => b.name === 'Helpful Guide')).toMatchObject({ multiple: true });
    });
  });

  describe('GET /users/{id}/badges and GET /user/badges', () => {
    it('answers 404 for an unknown or malformed user id', async () => {
      expect((await api.request('GET', '/users/999999/badges')).status).toBe(404);
      expect((await api.request('GET', '/users/abc/badges')).status).toBe(404);
      expect((await api.request('GET', '/users/99999999999/badges')).status).toBe(404);
    });

    it('answers 422 for an unknown category and 401 without a valid token', async () => {
      const res = await api.request('GET', '/users/1/badges?category=badgeNope');
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/category/);
      expect((await api.request('GET', '/user/badges')).status).toBe(401);
      expect((await api.request('GET', '/user/badges', { token: 'x'.repeat(32) })).status).toBe(401);
    });

    it('filters by category', async () => {
      const res = await api.request('GET', '/user/badges?category=badgeGeneral', { token: admin });
      expect(res.status).toBe(200);
      expect(res.body.map((e: { badge: { category: string } }) => e.badge.category)).toEqual(Array(5).fill('badgeGeneral'));
      expect((await api.request('GET', '/user/badges?category=badgeAnswers', { token: admin })).body).toEqual([]);
    });
  });

  it('a user publishes a guide, another completes it: both see their reputation and badges, and their team its sum', async () => {
    const carol = await register('carol');
    const dave = await register('dave');
    const team = await api.request('POST', '/teams', { token: carol.token, body: { name: 'Reputation testers' } });
    expect(team.status).toBe(201);
    expect((await api.request('PUT', `/teams/${team.body.teamid}/users/${dave.userid}`, { token: dave.token })).status).toBe(200);

    const guide = await api.request('POST', '/guides', { token: carol.token, body: { category: 'iPhone 12', type: 'repair', title: 'Reputation guide', public: true } });
    expect(guide.status).toBe(201);
    expect((await api.request('PUT', `/guides/${guide.body.guideid}/completed`, { token: dave.token, body: {} })).status).toBe(204);

    // Carol: 20 for publishing, 5 for Dave's completion, and two bronze badges (Author, Helpful Guide) of 5 each.
    await eventually(async () => {
      const res = await api.request('GET', `/users/${carol.userid}`);
      expect(res.body).toMatchObject({ reputation: 35, badge_counts: { bronze: 2, silver: 0, gold: 0, total: 2 }, teams: [team.body.teamid] });
    });
    // Dave: the Fixer badge for a first completion (5).
    await eventually(async () => {
      const res = await api.request('GET', `/users/${dave.userid}`);
      expect(res.body).toMatchObject({ reputation: 5, badge_counts: { bronze: 1, total: 1 } });
    });

    const badges = await api.request('GET', `/users/${carol.userid}/badges`);
    expect(badges.status).toBe(200);
    const earned = badges.body.filter((e: { earned: boolean }) => e.earned);
    expect(earned.map((e: { badge: { name: string } }) => e.badge.name).sort()).toEqual(['Author', 'Helpful Guide']);
    expect(badges.body.slice(0, 2)).toEqual(earned); // earned first
    for (const e of earned) expect(e).toMatchObject({ times_earned: 1, date: expect.any(Number) });
    const rest = badges.body.slice(2);
    expect(rest.every((e: { earned: boolean; date: null }) => !e.earned && e.date === null)).toBe(true);
    expect(rest.map((e: { badge: { badgeid: number } }) => e.badge.badgeid)).toEqual([...rest.map((e: { badge: { badgeid: number } }) => e.badge.badgeid)].sort((a, b) => a - b));

    const mine = await api.request('GET', '/user/badges', { token: dave.token });
    expect(mine.body[0]).toMatchObject({ earned: true, badge: { name: 'Fixer' } });

    // The team's reputation is the sum of its members'; the guide's author summary shows Carol's.
    const teams = await api.request('GET', '/teams');
    expect(teams.body.find((t: { teamid: number }) => t.teamid === team.body.teamid)).toMatchObject({ reputation: 40, member_count: 2 });
    expect((await api.request('GET', `/guides/${guide.body.guideid}`)).body.author).toMatchObject({ userid: carol.userid, reputation: 35 });

    // Dave takes the completion back: Carol loses its 5 points, and keeps her badges.
    expect((await api.request('DELETE', `/guides/${guide.body.guideid}/completed`, { token: dave.token })).status).toBe(204);
    await eventually(async () => {
      expect((await api.request('GET', `/users/${carol.userid}`)).body).toMatchObject({ reputation: 30, badge_counts: { total: 2 } });
    });
    expect((await api.request('GET', '/badges')).body.find((b: { name: string }) => b.name === 'Fixer').num_users).toBeGreaterThanOrEqual(1);
  });

  it('gives the demo users reputation and badges from the demo content', async () => {
    const alice = await api.request('GET', '/users?limit=50');
    const reputations = alice.body.map((u: { reputation: number }) => u.reputation);
    expect(reputations.some((r: number) => r > 0)).toBe(true);
    expect(new Set(reputations).size).toBeGreaterThan(1);
  });
});
