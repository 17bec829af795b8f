import { DEMO_TEAMS } from '@rc/demo-data';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { anImage } from './support/images.js';

type Who = 'admin' | 'alice' | 'bob';

interface Member {
  userid: number;
  username: string;
  reputation: number;
  teams: number[];
  [key: string]: unknown;
}

const BASE = 'https://repair.example';
const TEAM_KEYS = ['description', 'image', 'member_count', 'name', 'new_member_since', 'owner', 'reputation', 'teamid', 'url'];
const MEMBER_KEYS = ['image', 'join_date', 'reputation', 'teams', 'unique_username', 'url', 'userid', 'username'];

/** The `field`s listed by a 422 body. */
const fieldsOf = (res: ApiResponse) => ((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field);
const idsOf = (members: Member[]) => members.map((m) => m.userid);

describe('teams over HTTP', () => {
  let api: TestApi;
  const token: Record<Who, string> = { admin: '', alice: '', bob: '' };
  const id: Record<Who, number> = { admin: 0, alice: 0, bob: 0 };
  let guild: number;
  let cafe: number;
  let serial = 0;

  const auth = (who: Who | string | null) => (who === null ? undefined : who in token ? token[who as Who] : who);
  const list = (query = '') => api.request('GET', `/teams${query}`);
  const members = (teamId: number | string) => api.request<Member[]>('GET', `/teams/${teamId}`);
  const create = (who: Who | string | null, body: unknown) => api.request('POST', '/teams', { token: auth(who), body });
  const put = (who: Who | string | null, teamId: number | string, userId: number | string, query = '') =>
    api.request('PUT', `/teams/${teamId}/users/${userId}${query}`, { token: auth(who) });
  const del = (who: Who | string | null, teamId: number | string, userId: number | string) => api.request('DELETE', `/teams/${teamId}/users/${userId}`, { token: auth(who) });
  const team = async (teamId: number) => ((await list('?limit=200')).body as { teamid: number }[]).find((t) => t.teamid === teamId) as Record<string, unknown> | undefined;

  /** A new account, logged in: its id and token. */
  const register = async () => {
    serial += 1;
    const account = { email: `member${serial}@example.com`, username: `Member ${serial}`, unique_username: `member${serial}`, password: 'member-test-password' };
    const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return { userid: res.body.userid as number, token: res.body.authToken as string };
  };

  /** A new team owned by `who` (201 expected). */
  const newTeam = async (who: Who | string, fields: Record<string, unknown> = {}) => {
    const res = await create(who, { name: `Team ${++serial}`, ...fields });
    if (res.status !== 201) throw new Error(`team creation failed: ${res.status} ${res.text}`);
    return res.body.teamid as number;
  };

  beforeAll(async () => {
    api = await startTestApi({ PUBLIC_BASE_URL: BASE });
    for (const who of ['admin', 'alice', 'bob'] as const) {
      token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
      id[who] = (await api.request('GET', '/user', { token: token[who] })).body.userid;
    }
    const demo = (await list()).body as { teamid: number; name: string }[];
    guild = demo.find((t) => t.name === DEMO_TEAMS.guild.name)!.teamid;
    cafe = demo.find((t) => t.name === DEMO_TEAMS.cafe.name)!.teamid;
  });
  afterAll(() => api.close());

  describe('the demo teams', () => {
    it('hold an owner, members and (for the guild) a join code', async () => {
      expect(idsOf((await members(guild)).body)).toEqual([id.admin, id.alice, id.bob].sort((a, b) => a - b));
      expect(idsOf((await members(cafe)).body)).toEqual([id.alice, id.bob].sort((a, b) => a - b));
      expect((await team(guild))!.owner).toBe(id.alice);
      expect((await team(cafe))!.owner).toBe(id.bob);
      const outsider = await register();
      expect((await put(outsider.token, guild, outsider.userid)).status).toBe(403);
      expect((await put(outsider.token, guild, outsider.userid, `?join_code=${DEMO_TEAMS.guild.joinCode}`)).status).toBe(200);
      expect((await del(outsider.token, guild, outsider.userid)).status).toBe(200);
    });
  });

  describe('GET /teams', () => {
    it('answers Team objects by teamid, with the reputation of their members summed', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const teams = res.body as Record<string, unknown>[];
      expect(teams.map((t) => t['teamid'])).toEqual([...teams.map((t) => t['teamid'] as number)].sort((a, b) => a - b));
      for (const t of teams) expect(Object.keys(t).sort()).toEqual(TEAM_KEYS);
      const g = teams.find((t) => t['teamid'] === guild)!;
      const shown = (await members(guild)).body;
      expect(g).toEqual({
        teamid: guild,
        name: 'Fixers Guild',
        owner: id.alice,
        reputation: shown.reduce((sum, m) => sum + m.reputation, 0),
        image: null,
        url: `${BASE}/Team/${guild}/Fixers+Guild`,
        member_count: 3,
        description: DEMO_TEAMS.guild.description,
        new_member_since: expect.any(Number),
      });
      expect(g['join_code']).toBeUndefined();
      expect(teams.find((t) => t['teamid'] === cafe)!['url']).toBe(`${BASE}/Team/${cafe}/Open+Repair+Caf%C3%A9`);
    });

    it('pages, orders and filters by newMemberSince', async () => {
      const a = await newTeam('alice');
      const b = await newTeam('alice');
      const all = ((await list('?limit=200')).body as { teamid: number }[]).map((t) => t.teamid);
      expect(all).toEqual(expect.arrayContaining([guild, cafe, a, b]));
      expect(((await list('?limit=2&offset=1')).body as { teamid: number }[]).map((t) => t.teamid)).toEqual(all.slice(1, 3));
      expect(((await list('?order=DESC&limit=2')).body as { teamid: number }[]).map((t) => t.teamid)).toEqual([...all].reverse().slice(0, 2));
      // b's only member joined when it was made: a member who joins a later team afterwards makes that one "new".
      const newest = (await team(b))!['new_member_since'] as number;
      await new Promise((r) => setTimeout(r, 1100));
      const since = newest + 1;
      expect(((await list(`?newMemberSince=${since}`)).body as unknown[]).length).toBe(0);
      expect((await put('bob', a, id.bob)).status).toBe(200);
      const recent = (await list(`?newMemberSince=${since}`)).body as { teamid: number; new_member_since: number }[];
      expect(recent.map((t) => t.teamid)).toEqual([a]);
      expect(recent[0]!.new_member_since).toBeGreaterThanOrEqual(since);
      expect(((await list('?newMemberSince=0&limit=200')).body as unknown[]).length).toBe(all.length);
    });

    it.each(['?limit=-1', '?offset=abc', '?newMemberSince=yesterday', '?order=sideways'])('answers 400 to %s', async (query) => {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(true);
    });
  });

  describe('GET /teams/{id}', () => {
    it('lists the members as UserSummaries without privileges, ordered by userid, with their teams', async () => {
      const res = await members(guild);
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual([...idsOf(res.body)].sort((a, b) => a - b));
      for (const m of res.body) {
        expect(Object.keys(m).sort()).toEqual(MEMBER_KEYS);
        expect(m.teams).toContain(guild);
      }
      const alice = res.body.find((m) => m.userid === id.alice)!;
      expect(alice).toMatchObject({ username: DEMO_ACCOUNTS.alice.username, unique_username: 'alice', image: anImage(), url: expect.stringContaining(`/User/${id.alice}/`) });
      expect(alice.teams).toEqual(expect.arrayContaining([guild, cafe]));
    });

    it.each(['999999', 'abc', '0', '99999999999'])('answers 404 for team %s', async (raw) => {
      const res = await members(raw);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: true, message: 'Team not found' });
    });
  });

  describe('POST /teams (extension)', () => {
    it('needs a token', async () => {
      expect((await create(null, { name: 'Nope' })).status).toBe(401);
      expect((await create('not-a-token', { name: 'Nope' })).status).toBe(401);
    });

    it('creates a team owned by the caller, its first member: 201 with the Team object', async () => {
      const res = await create('bob', { name: '  Weekend Welders ', description: 'Metal things.', join_code: 'arc' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(TEAM_KEYS);
      expect(res.body).toMatchObject({ name: 'Weekend Welders', owner: id.bob, member_count: 1, image: null, description: 'Metal things.' });
      expect(res.body.new_member_since).toBeGreaterThan(0);
      const bobsRep = (await members(res.body.teamid)).body[0]!.reputation;
      expect(res.body.reputation).toBe(bobsRep);
      expect(idsOf((await members(res.body.teamid)).body)).toEqual([id.bob]);
      expect(await team(res.body.teamid)).toEqual(res.body);
    });

    it.each<[string, unknown, string[]]>([
      ['an empty name', { name: '' }, ['name']],
      ['a blank name', { name: '   ' }, ['name']],
      ['no name', { description: 'x' }, ['name']],
      ['a name that is not a string', { name: 12 }, ['name']],
      ['a name over 255 characters', { name: 'n'.repeat(256) }, ['name']],
      ['an empty join code', { name: 'Ok', join_code: '' }, ['join_code']],
      ['an unknown field', { name: 'Ok', image: 5 }, ['image']],
      ['an owner field (the caller is the owner)', { name: 'Ok', owner: 1 }, ['owner']],
    ])('answers 422 to %s, and creates nothing', async (_, body, fields) => {
      const before = (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM teams'))[0]!.n;
      const res = await create('alice', body);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe(true);
      expect(fieldsOf(res)).toEqual(fields);
      expect((await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM teams'))[0]!.n).toBe(before);
    });

    it('answers 422 to a body that is not an object, and 400 to one that is not JSON', async () => {
      expect((await create('alice', '["Fixers"]')).status).toBe(422);
      expect((await create('alice', '{"name":')).status).toBe(400);
    });
  });

  describe('PUT /teams/{id}/users/{userid}', () => {
    it('needs a token', async () => {
      expect((await put(null, cafe, id.admin)).status).toBe(401);
    });

    it('lets anyone join an open team by themself: 200 with the member list', async () => {
      const teamId = await newTeam('alice');
      const res = await put('bob', teamId, id.bob);
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual([id.alice, id.bob].sort((a, b) => a - b));
      for (const m of res.body) expect(Object.keys(m).sort()).toEqual(MEMBER_KEYS);
      expect((res.body as Member[]).find((m) => m.userid === id.bob)!.teams).toContain(teamId);
      expect((await team(teamId))!['member_count']).toBe(2);
    });

    it('needs the right join_code to join a coded team (403 otherwise)', async () => {
      const teamId = await newTeam('alice', { join_code: 'open sesame' });
      for (const query of ['', '?join_code=', '?join_code=OPEN%20SESAME', '?join_code=wrong']) {
        const res = await put('bob', teamId, id.bob, query);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: true, message: expect.stringMatching(/join_code/) });
      }
      expect(idsOf((await members(teamId)).body)).toEqual([id.alice]);
      expect((await put('bob', teamId, id.bob, '?join_code=open%20sesame')).status).toBe(200);
      expect(idsOf((await members(teamId)).body)).toEqual([id.alice, id.bob].sort((a, b) => a - b));
    });

    it('lets the owner and Admins add someone else, and nobody else (403)', async () => {
      const teamId = await newTeam('alice', { join_code: 'secret' });
      const carol = await register();
      const dave = await register();
      expect((await put('bob', teamId, carol.userid)).status).toBe(403);
      expect((await put('alice', teamId, carol.userid)).status).toBe(200);
      expect((await put(carol.token, teamId, dave.userid)).status).toBe(403);
      expect((await put('admin', teamId, dave.userid)).status).toBe(200);
      expect(idsOf((await members(teamId)).body)).toEqual([id.alice, carol.userid, dave.userid].sort((a, b) => a - b));
    });

    it('keeps one membership per user: joining again answers the same list', async () => {
      const teamId = await newTeam('alice');
      const first = await put('bob', teamId, id.bob);
      const again = await put('bob', teamId, id.bob);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect((await api.sql('SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, id.bob])).length).toBe(1);
    });

    it('answers 404 for an unknown team or user', async () => {
      const teamId = await newTeam('alice');
      expect((await put('alice', 999999, id.alice)).status).toBe(404);
      expect((await put('alice', 'abc', id.alice)).status).toBe(404);
      const unknownUser = await put('alice', teamId, 999999);
      expect(unknownUser.status).toBe(404);
      expect(unknownUser.body.message).toBe('User not found');
      expect((await put('alice', teamId, 'abc')).status).toBe(404);
      expect((await put('admin', teamId, 999999)).status).toBe(404);
    });
  });

  describe('DELETE /teams/{id}/users/{userid}', () => {
    it('needs a token', async () => {
      expect((await del(null, cafe, id.bob)).status).toBe(401);
    });

    it('lets a member leave: 200 with the remaining members', async () => {
      const teamId = await newTeam('alice');
      await put('bob', teamId, id.bob);
      const res = await del('bob', teamId, id.bob);
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual([id.alice]);
      expect(res.body[0]!.teams).toContain(teamId);
    });

    it('lets the owner or an Admin remove someone, and nobody else (403)', async () => {
      const teamId = await newTeam('alice');
      const carol = await register();
      await put(carol.token, teamId, carol.userid);
      await put('bob', teamId, id.bob);
      expect((await del(carol.token, teamId, id.bob)).status).toBe(403);
      expect((await del('admin', teamId, id.bob)).status).toBe(200);
      expect((await del('alice', teamId, carol.userid)).status).toBe(200);
      expect(idsOf((await members(teamId)).body)).toEqual([id.alice]);
    });

    it('answers 404 for an unknown team, or a user who is not a member', async () => {
      const teamId = await newTeam('alice');
      expect((await del('alice', 999999, id.alice)).status).toBe(404);
      const notMember = await del('alice', teamId, id.bob);
      expect(notMember.status).toBe(404);
      expect(notMember.body.message).toBe('User is not a member of this team');
      expect((await del('bob', teamId, id.bob)).status).toBe(404);
      expect((await del('alice', teamId, 'abc')).status).toBe(404);
    });

    it('promotes the earliest remaining member when the owner leaves', async () => {
      const teamId = await newTeam('bob');
      const first = await register();
      const second = await register();
      await put(second.token, teamId, second.userid);
      await new Promise((r) => setTimeout(r, 10));
      await put(first.token, teamId, first.userid);
      expect((await del('bob', teamId, id.bob)).status).toBe(200);
      // The earliest to join, not the lowest id.
      expect((await team(teamId))!['owner']).toBe(second.userid);
      // The new owner manages the team.
      expect((await del(second.token, teamId, first.userid)).status).toBe(200);
      expect((await put(second.token, teamId, id.alice)).status).toBe(200);
    });

    it('deletes a team when its last member leaves: 200 [], then 404 and gone from the list', async () => {
      const teamId = await newTeam('alice');
      await put('bob', teamId, id.bob);
      await del('alice', teamId, id.alice);
      const last = await del('bob', teamId, id.bob);
      expect(last.status).toBe(200);
      expect(last.body).toEqual([]);
      expect((await members(teamId)).status).toBe(404);
      expect(await team(teamId)).toBeUndefined();
      expect((await put('admin', teamId, id.admin)).status).toBe(404);
      expect((await del('admin', teamId, id.bob)).status).toBe(404);
      // Soft delete: the row stays, without members or owner.
      const [row] = await api.sql<{ owner_id: number | null; deleted: boolean }>('SELECT owner_id, deleted_at IS NOT NULL AS deleted FROM teams WHERE id = $1', [teamId]);
      expect(row).toEqual({ owner_id: null, deleted: true });
      const bobs = (await members(cafe)).body.find((m) => m.userid === id.bob)!;
      expect(bobs.teams).not.toContain(teamId);
    });
  });

  describe('HTTP contract', () => {
    it('answers 405 with Allow to other methods on team paths', async () => {
      const patch = await api.request('PATCH', `/teams/${cafe}`, { token: token.alice, body: {} });
      expect(patch.status).toBe(405);
      expect(patch.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      const post = await api.request('POST', `/teams/${cafe}/users/${id.alice}`, { token: token.alice });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('DELETE, OPTIONS, PUT');
    });

    it('ignores an invalid token on the public reads', async () => {
      expect((await api.request('GET', '/teams', { token: 'not-a-token' })).status).toBe(200);
      expect((await api.request('GET', `/teams/${cafe}`, { token: 'not-a-token' })).status).toBe(200);
    });

    it('documents the routes, their security and error responses in OpenAPI', async () => {
      const doc = (await api.request('GET', '/docs-json')).body as { paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown>; description?: string }>> };
      const op = (path: string, method: string) => doc.paths[`/api/2.0${path}`]![method]!;
      expect(op('/teams', 'get').security).toEqual([]);
      expect(Object.keys(op('/teams', 'get').responses).sort()).toEqual(['200', '304', '400']);
      expect(Object.keys(op('/teams/{teamid}', 'get').responses).sort()).toEqual(['200', '304', '404']);
      expect(op('/teams', 'post').security).toEqual([{ api: [] }]);
      expect(Object.keys(op('/teams', 'post').responses).sort()).toEqual(['201', '401', '422']);
      expect(op('/teams', 'post').description).toMatch(/extension/i);
      for (const method of ['put', 'delete']) {
        expect(op('/teams/{teamid}/users/{userid}', method).security).toEqual([{ api: [] }]);
        expect(Object.keys(op('/teams/{teamid}/users/{userid}', method).responses).sort()).toEqual(['200', '401', '403', '404']);
      }
    });
  });

  describe('concurrency', () => {
    it('keeps every one of 20 concurrent joins', async () => {
      const teamId = await newTeam('alice');
      const joiners = [];
      for (let i = 0; i < 20; i++) joiners.push(await register());
      const results = await Promise.all(joiners.map((j) => put(j.token, teamId, j.userid)));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      const after = (await members(teamId)).body;
      expect(idsOf(after)).toEqual([id.alice, ...joiners.map((j) => j.userid)].sort((a, b) => a - b));
      expect((await team(teamId))!['member_count']).toBe(21);
    });

    it('never leaves a team ownerless when the owner and the next in line leave at once, while others join', async () => {
      const teamId = await newTeam('alice');
      const crowd = [];
      for (let i = 0; i < 12; i++) {
        const user = await register();
        await put(user.token, teamId, user.userid);
        crowd.push(user);
      }
      const newcomers = [];
      for (let i = 0; i < 4; i++) newcomers.push(await register());
      const leaving = crowd.slice(0, 6);
      const results = await Promise.all([
        del('alice', teamId, id.alice),
        ...leaving.map((u) => del(u.token, teamId, u.userid)),
        ...newcomers.map((u) => put(u.token, teamId, u.userid)),
      ]);
      expect(results.map((r) => r.status)).toEqual(Array(1 + leaving.length + newcomers.length).fill(200));
      const remaining = idsOf((await members(teamId)).body);
      expect(remaining).toEqual([...crowd.slice(6), ...newcomers].map((u) => u.userid).sort((a, b) => a - b));
      // The earliest of the members who stayed owns the team.
      expect((await team(teamId))!['owner']).toBe(crowd[6]!.userid);
    });

    it('ends emptied and deleted, with no error but 404s, when every member leaves at once while others try to join', async () => {
      const teamId = await newTeam('alice');
      const crowd = [];
      for (let i = 0; i < 5; i++) {
        const user = await register();
        await put(user.token, teamId, user.userid);
        crowd.push(user);
      }
      const late = await register();
      const results = await Promise.all([del('alice', teamId, id.alice), ...crowd.map((u) => del(u.token, teamId, u.userid)), put(late.token, teamId, late.userid)]);
      expect(results.slice(0, 6).every((r) => r.status === 200 || r.status === 404)).toBe(true);
      expect([200, 404]).toContain(results[6]!.status);
      const gone = (await members(teamId)).status === 404;
      const remaining = await api.sql<{ user_id: number }>('SELECT user_id FROM team_members WHERE team_id = $1', [teamId]);
      const [row] = await api.sql<{ owner_id: number | null }>('SELECT owner_id FROM teams WHERE id = $1', [teamId]);
      if (gone) {
        expect(remaining).toEqual([]);
        expect(row!.owner_id).toBeNull();
      } else {
        expect(remaining.map((r) => r.user_id)).toEqual([late.userid]);
        expect(row!.owner_id).toBe(late.userid);
      }
      expect(results.some((r) => r.status >= 500)).toBe(false);
    });
  });
});
