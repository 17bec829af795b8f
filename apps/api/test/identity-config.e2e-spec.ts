import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { DEFAULT_IDENTITY_POLICY } from '@rc/identity-domain';
import { loadConfig } from '../src/config/config.js';
import { startApi, type RunningApi } from '../src/server.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

// Identity behaviour that depends on the operator's configuration (environment variables).

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const fieldsOf = (res: ApiResponse) => [...new Set(((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field))];
const TEST_ARGON2 = { memoryCost: 4096, timeCost: 1, parallelism: 1 };

/** Another instance of the production server on an existing database (no demo data). */
function startOnDatabase(databaseUrl: string, env: Record<string, string> = {}): Promise<RunningApi> {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false', LOG_LEVEL: 'silent', ...env, DATABASE_URL: databaseUrl });
  return startApi(config, pino({ level: 'silent' }), { identity: { argon2: TEST_ARGON2 } });
}

/** A JSON request under `/api/2.0` of a server started with `startOnDatabase`. */
async function call(running: RunningApi, method: string, path: string, options: { body?: unknown; token?: string; appId?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers['Authorization'] = `api ${options.token}`;
  if (options.appId) headers['X-App-Id'] = options.appId;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${running.url}/api/2.0${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const userIdOf = async (api: TestApi, email: string) => (await api.sql<{ id: number }>('SELECT id FROM users WHERE email = $1', [email]))[0]!.id;
const countUsers = async (api: TestApi) => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n;

describe('identity configuration over HTTP', () => {
  describe('PUBLIC_REGISTRATION=false', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi({ PUBLIC_REGISTRATION: 'false' });
    });
    afterAll(() => api.close());

    const account = (name: string) => ({ email: `${name}@example.com`, username: name, unique_username: name, password: `${name}-long-password` });

    it('refuses registration without a token: 401, no account created', async () => {
      const before = await countUsers(api);
      const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account('anonymous') });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      expect(await countUsers(api)).toBe(before);
    });

    it('treats an invalid token like no token: 401', async () => {
      const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, token: 'A'.repeat(43), body: account('badtoken') });
      expect(res.status).toBe(401);
    });

    it('refuses registration by a non-admin: 403 naming the Admin privilege, no account created', async () => {
      const before = await countUsers(api);
      const alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, token: alice, body: account('byalice') });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: true, message: expect.any(String), requiredPrivileges: ['Admin'] });
      expect(await countUsers(api)).toBe(before);
    });

    it('lets an Admin register an account: 201, the token returned belongs to the new account', async () => {
      const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
      const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, token: admin, body: account('byadmin') });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ unique_username: 'byadmin', privileges: ['User'], authToken: expect.any(String) });
      const me = await api.request('GET', '/user', { token: res.body.authToken });
      expect(me.status).toBe(200);
      expect(me.body.userid).toBe(res.body.userid);
      expect(me.body.unique_username).toBe('byadmin');
      // The admin's own token is untouched.
      expect((await api.request('GET', '/user', { token: admin })).body.privileges).toEqual(['User', 'Admin']);
      // The new account can log in by itself.
      expect((await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: 'byadmin@example.com', password: 'byadmin-long-password' } })).status).toBe(201);
    });

    it('still needs the X-App-Id for an Admin: 400', async () => {
      const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
      const res = await api.request('POST', '/users', { token: admin, body: account('noappid') });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: true, message: 'Invalid app id' });
    });
  });

  describe('IMPERSONATION=true', () => {
    let api: TestApi;
    let admin: string;
    let aliceId: number;
    beforeAll(async () => {
      api = await startTestApi({ IMPERSONATION: 'true' });
      admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
      aliceId = await userIdOf(api, DEMO_ACCOUNTS.alice.email);
    });
    afterAll(() => api.close());

    const impersonate = (body: unknown, token?: string) => api.request('POST', '/user/token/impersonate', { token, body });

    it('gives an Admin a 201 token acting as the target user', async () => {
      const res = await impersonate({ userid: aliceId }, admin);
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body).toMatchObject({ userid: aliceId, unique_username: 'alice', privileges: ['User'], authToken: expect.any(String) });
      const me = await api.request('GET', '/user', { token: res.body.authToken });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ userid: aliceId, unique_username: 'alice', privileges: ['User'], authToken: res.body.authToken });
      // Stored hashed, for alice.
      const [row] = await api.sql<{ user_id: number }>('SELECT user_id FROM auth_tokens WHERE digest = $1', [sha256(res.body.authToken)]);
      expect(row?.user_id).toBe(aliceId);
      // The admin's own token still acts as the admin.
      expect((await api.request('GET', '/user', { token: admin })).body.privileges).toEqual(['User', 'Admin']);
    });

    it('refuses a non-admin: 403', async () => {
      const alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      const bobId = await userIdOf(api, DEMO_ACCOUNTS.bob.email);
      const tokensOfBob = async () => (await api.sql('SELECT 1 FROM auth_tokens WHERE user_id = $1', [bobId])).length;
      const before = await tokensOfBob();
      const res = await impersonate({ userid: bobId }, alice);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: true, requiredPrivileges: ['Admin'] });
      expect(await tokensOfBob()).toBe(before);
    });

    it('refuses a call without a token: 401', async () => {
      const res = await impersonate({ userid: aliceId });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: true });
    });

    it('answers 404 for an unknown userid', async () => {
      const res = await impersonate({ userid: 999999 }, admin);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: true, message: 'User not found' });
    });

    it('answers 404 for a disabled account', async () => {
      const reg = await api.request('POST', '/users', {
        appId: DEMO_APP_ID,
        body: { email: 'gone@example.com', username: 'Gone', unique_username: 'gone', password: 'gone-long-password' },
      });
      expect(reg.status).toBe(201);
      await api.sql(`UPDATE users SET status = 'disabled' WHERE id = $1`, [reg.body.userid]);
      expect((await impersonate({ userid: reg.body.userid }, admin)).status).toBe(404);
    });

    it('answers 422 naming `userid` for a non-integer or missing userid', async () => {
      for (const body of [{ userid: 'abc' }, { userid: 1.5 }, {}, { userid: 0 }]) {
        const res = await impersonate(body, admin);
        expect(res.status).toBe(422);
        expect(fieldsOf(res)).toEqual(['userid']);
      }
    });
  });

  describe('MAX_TOKENS_PER_USER=2', () => {
    let api: TestApi;
    beforeAll(async () => {
      // Generous login throttling: the concurrent-login test below is about the token cap.
      const throttle = { ...DEFAULT_IDENTITY_POLICY.throttle, loginFailuresPerEmailAndAddress: 100, loginFailuresPerAddress: 1000 };
      api = await startTestApi({ MAX_TOKENS_PER_USER: '2' }, { identity: { policy: { throttle } } });
    });
    afterAll(() => api.close());

    it('revokes the oldest token when a third login happens', async () => {
      const first = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      const second = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      expect((await api.request('GET', '/user', { token: first })).status).toBe(200);
      const third = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      expect((await api.request('GET', '/user', { token: first })).status).toBe(401);
      expect((await api.request('GET', '/user', { token: second })).status).toBe(200);
      expect((await api.request('GET', '/user', { token: third })).status).toBe(200);
      const bobId = await userIdOf(api, DEMO_ACCOUNTS.bob.email);
      const digests = (await api.sql<{ digest: string }>('SELECT digest FROM auth_tokens WHERE user_id = $1', [bobId])).map((r) => r.digest).sort();
      expect(digests).toEqual([sha256(second), sha256(third)].sort());
    });

    it('30 concurrent logins still leave at most 2 live tokens', async () => {
      const results = await Promise.all(Array.from({ length: 30 }, () => api.request('POST', '/user/token', {
        appId: DEMO_APP_ID,
        body: { email: DEMO_ACCOUNTS.alice.email, password: DEMO_ACCOUNTS.alice.password },
      })));
      expect(results.every((r) => r.status === 201)).toBe(true);
      let live = 0;
      for (const r of results) if ((await api.request('GET', '/user', { token: r.body.authToken })).status === 200) live += 1;
      expect(live).toBeLessThanOrEqual(2);
      const aliceId = await userIdOf(api, DEMO_ACCOUNTS.alice.email);
      expect(await api.sql('SELECT 1 FROM auth_tokens WHERE user_id = $1 AND expires_at > now()', [aliceId])).toHaveLength(2);
    });

    it("caps each user separately: another user's logins do not revoke bob's tokens", async () => {
      const bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      for (let i = 0; i < 3; i++) await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      expect((await api.request('GET', '/user', { token: bob })).status).toBe(200);
    });
  });

  describe('TOKEN_TTL_DAYS=1', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi({ TOKEN_TTL_DAYS: '1' });
    });
    afterAll(() => api.close());

    it('issues tokens valid for one day', async () => {
      const token = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      const [row] = await api.sql<{ seconds: number }>(
        'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM auth_tokens WHERE digest = $1',
        [sha256(token)],
      );
      expect(row?.seconds).toBe(24 * 3600);
    });

    it('refuses an expired token with 401 (and another, live token still works)', async () => {
      const expired = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      const live = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      expect((await api.request('GET', '/user', { token: expired })).status).toBe(200);
      await api.sql(`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE digest = $1`, [sha256(expired)]);
      const res = await api.request('GET', '/user', { token: expired });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: true });
      expect((await api.request('DELETE', '/user/token', { token: expired })).status).toBe(401);
      expect((await api.request('GET', '/user', { token: live })).status).toBe(200);
    });
  });

  describe('ADMIN_EMAIL / ADMIN_PASSWORD and APP_IDS', () => {
    const ADMIN = { email: 'ops@example.com', password: 'first-ops-password' };
    let api: TestApi;
    const extra: RunningApi[] = [];
    beforeAll(async () => {
      api = await startTestApi({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, APP_IDS: 'app-one,app-two' });
    });
    afterAll(async () => {
      for (const running of extra) await running.close();
      await api.close();
    });

    const login = (password: string, appId = 'app-one') => api.request('POST', '/user/token', { appId, body: { email: ADMIN.email, password } });

    it('creates that admin at start: it logs in with privileges User and Admin', async () => {
      const res = await login(ADMIN.password);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ privileges: ['User', 'Admin'], greatest_privilege: 'Admin', authToken: expect.any(String) });
      const [row] = await api.sql<{ role: string; password_hash: string }>('SELECT role, password_hash FROM users WHERE email = $1', [ADMIN.email]);
      expect(row!.role).toBe('Admin');
      expect(row!.password_hash.startsWith('$argon2id$')).toBe(true);
    });

    it('registers every app id of APP_IDS: both work for login', async () => {
      for (const appId of ['app-one', 'app-two']) {
        const res = await login(ADMIN.password, appId);
        expect(res.status).toBe(201);
      }
      expect((await login(ADMIN.password, 'app-three')).status).toBe(400);
      const ids = (await api.sql<{ app_id: string }>('SELECT app_id FROM app_ids WHERE revoked_at IS NULL ORDER BY app_id')).map((r) => r.app_id);
      expect(ids).toEqual(expect.arrayContaining(['app-one', 'app-two']));
    });

    it('a restart with the same settings changes nothing (same account, same hash, no new rows)', async () => {
      const [before] = await api.sql<{ id: number; password_hash: string }>('SELECT id, password_hash FROM users WHERE email = $1', [ADMIN.email]);
      const users = await countUsers(api);
      const apps = (await api.sql('SELECT 1 FROM app_ids')).length;
      extra.push(await startOnDatabase(api.db.url, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, APP_IDS: 'app-one,app-two' }));
      const [after] = await api.sql<{ id: number; password_hash: string }>('SELECT id, password_hash FROM users WHERE email = $1', [ADMIN.email]);
      expect(after).toEqual(before);
      expect(await countUsers(api)).toBe(users);
      expect((await api.sql('SELECT 1 FROM app_ids')).length).toBe(apps);
    });

    it('a restart with another ADMIN_PASSWORD sets it on the same account: the new one works, the old one not', async () => {
      const userid = await userIdOf(api, ADMIN.email);
      const users = await countUsers(api);
      const second = await startOnDatabase(api.db.url, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: 'second-ops-password', APP_IDS: 'app-one' });
      extra.push(second);
      const res = await call(second, 'POST', '/user/token', { appId: 'app-one', body: { email: ADMIN.email, password: 'second-ops-password' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ userid, privileges: ['User', 'Admin'] });
      // The first instance shares the database: it sees the new password too.
      expect((await login('second-ops-password')).status).toBe(201);
      expect((await login(ADMIN.password)).status).toBe(401);
      expect(await countUsers(api)).toBe(users);
      // app-two registered by the first start is still valid.
      expect((await call(second, 'POST', '/user/token', { appId: 'app-two', body: { email: ADMIN.email, password: 'second-ops-password' } })).status).toBe(201);
    });

    it('a restart still starts when APP_IDS lists a revoked app id (which stays unusable)', async () => {
      await api.sql(`INSERT INTO app_ids (app_id, name, created_at, revoked_at) VALUES ('app-gone', 'test', now(), now())`);
      const running = await startOnDatabase(api.db.url, { APP_IDS: 'app-one,app-gone' });
      extra.push(running);
      expect((await call(running, 'POST', '/user/token', { appId: 'app-one', body: { email: ADMIN.email, password: 'x-wrong-password' } })).status).toBe(401);
    });

    it('ADMIN_EMAIL of an existing user promotes that account to Admin (no second account)', async () => {
      const reg = await api.request('POST', '/users', {
        appId: 'app-one',
        body: { email: 'promoted@example.com', username: 'Promoted', unique_username: 'promoted', password: 'promoted-password' },
      });
      expect(reg.status).toBe(201);
      const users = await countUsers(api);
      extra.push(await startOnDatabase(api.db.url, { ADMIN_EMAIL: 'Promoted@Example.com', ADMIN_PASSWORD: 'promoted-admin-password' }));
      const res = await api.request('POST', '/user/token', { appId: 'app-one', body: { email: 'promoted@example.com', password: 'promoted-admin-password' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ userid: reg.body.userid, privileges: ['User', 'Admin'] });
      expect(await countUsers(api)).toBe(users);
    });
  });
});
