import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { DEFAULT_IDENTITY_POLICY, type IdentityPolicy } from '@rc/identity-domain';
import { loadConfig } from '../src/config/config.js';
import { startApi, type RunningApi } from '../src/server.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

// Login, registration and reset throttling. Every group runs on its own server so that no
// lock-out leaks into other tests.

const RATE_LIMITED = { error: true, message: 'Rate limit exceeded. Please try again later.' };
const TEST_ARGON2 = { memoryCost: 4096, timeCost: 1, parallelism: 1 };

const throttle = (overrides: Partial<IdentityPolicy['throttle']>): Partial<IdentityPolicy> => ({
  throttle: { ...DEFAULT_IDENTITY_POLICY.throttle, ...overrides },
});

/** A 429 with the API's body and a whole, positive Retry-After no longer than the window. */
function expectRateLimited(res: ApiResponse, windowSeconds: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual(RATE_LIMITED);
  expect(res.headers.get('content-type')).toBe('application/json');
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^[0-9]+$/);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

function loginWith(api: TestApi, email: string, password: string, headers: Record<string, string> = {}) {
  return api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email, password }, headers });
}

async function registerOn(api: TestApi, name: string) {
  const account = { email: `${name}@example.com`, username: name, unique_username: name, password: `${name}-long-password` };
  const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { ...account, userid: res.body.userid as number };
}

describe('identity throttling over HTTP', () => {
  describe('failures per email from one address (loginFailuresPerEmailAndAddress = 3)', () => {
    const WINDOW = 60;
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi({}, { identity: { policy: throttle({ loginFailuresPerEmailAndAddress: 3, windowSeconds: WINDOW }) } });
    });
    afterAll(() => api.close());

    const login = (email: string, password: string) => loginWith(api, email, password);
    const tokenCount = async () => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM auth_tokens'))[0]!.n;

    it('3 wrong passwords give 401; the 4th attempt, even with the right password, is 429 with Retry-After', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await login(DEMO_ACCOUNTS.alice.email, `wrong-password-${i}`);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: true, message: 'Invalid login' });
      }
      const tokens = await tokenCount();
      const res = await login(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      expectRateLimited(res, WINDOW);
      expect(res.body).not.toHaveProperty('authToken');
      expect(await tokenCount()).toBe(tokens);
      // Still locked on the next attempt.
      expectRateLimited(await login(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password), WINDOW);
    });

    it('records the failures in PostgreSQL (auth_attempts), per email and address and per email', async () => {
      const count = async (kind: string, key: string) =>
        (await api.sql<{ n: number }>(`SELECT count(*)::int AS n FROM auth_attempts WHERE kind = $1 AND key = $2`, [kind, key]))[0]!.n;
      expect(await count('login-pair', `127.0.0.1 ${DEMO_ACCOUNTS.alice.email}`)).toBe(3);
      expect(await count('login-email', DEMO_ACCOUNTS.alice.email)).toBe(3);
    });

    it('another email from the same address still logs in', async () => {
      const res = await login(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      expect(res.status).toBe(201);
      expect(res.body.authToken).toEqual(expect.any(String));
    });

    it('counts variants of one email (case, spaces) as the same email', async () => {
      const user = await registerOn(api, 'casey');
      for (const email of ['CASEY@example.com', ' casey@example.com ', 'Casey@Example.Com']) {
        expect((await login(email, 'wrong-password')).status).toBe(401);
      }
      expectRateLimited(await login(user.email, user.password), WINDOW);
    });

    it('throttles an email without an account the same way (no hint that it does not exist)', async () => {
      for (let i = 0; i < 3; i++) expect((await login('ghost@example.com', 'wrong-password')).status).toBe(401);
      const res = await login('ghost@example.com', 'any-password-at-all');
      expectRateLimited(res, WINDOW);
    });

    it('a successful login clears the email’s failures from that address', async () => {
      const user = await registerOn(api, 'clearing');
      for (let i = 0; i < 2; i++) expect((await login(user.email, 'wrong-password')).status).toBe(401);
      expect((await login(user.email, user.password)).status).toBe(201);
      for (let i = 0; i < 2; i++) expect((await login(user.email, 'wrong-password')).status).toBe(401);
      expect((await login(user.email, user.password)).status).toBe(201);
    });

    it('20 concurrent wrong passwords get at most 3 password checks (the rest 429)', async () => {
      const user = await registerOn(api, 'burst');
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login(user.email, `wrong-password-${i}`)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(3);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(17);
    });

    it('the lock ends when the failures leave the window (sliding window read from the database)', async () => {
      const user = await registerOn(api, 'waiting');
      for (let i = 0; i < 3; i++) expect((await login(user.email, 'wrong-password')).status).toBe(401);
      expectRateLimited(await login(user.email, user.password), WINDOW);
      await api.sql(`UPDATE auth_attempts SET at = at - interval '${WINDOW + 1} seconds' WHERE key IN ($1, $2)`, [user.email, `127.0.0.1 ${user.email}`]);
      expect((await login(user.email, user.password)).status).toBe(201);
    });
  });

  describe('a short window (windowSeconds = 2)', () => {
    const WINDOW = 2;
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi({}, { identity: { policy: throttle({ loginFailuresPerEmailAndAddress: 3, windowSeconds: WINDOW }) } });
    });
    afterAll(() => api.close());

    it('Retry-After is honest: after waiting that long the right password works', async () => {
      for (let i = 0; i < 3; i++) expect((await loginWith(api, DEMO_ACCOUNTS.bob.email, 'wrong-password')).status).toBe(401);
      const locked = await loginWith(api, DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      expectRateLimited(locked, WINDOW);
      await sleep(Number(locked.headers.get('retry-after')) * 1000 + 100);
      expect((await loginWith(api, DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password)).status).toBe(201);
    });
  });

  describe('failures per client address (loginFailuresPerAddress = 4, TRUST_PROXY=1)', () => {
    const WINDOW = 60;
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi({ TRUST_PROXY: '1' }, { identity: { policy: throttle({ loginFailuresPerEmail: 100, loginFailuresPerAddress: 4, windowSeconds: WINDOW }) } });
    });
    afterAll(() => api.close());

    it('failures on different emails from one address add up to a 429 for any email from that address; another address is unaffected', async () => {
      const from = { 'X-Forwarded-For': '203.0.113.7' };
      for (let i = 0; i < 4; i++) {
        const res = await loginWith(api, `stranger${i}@example.com`, 'wrong-password', from);
        expect(res.status).toBe(401);
      }
      expectRateLimited(await loginWith(api, DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password, from), WINDOW);
      expectRateLimited(await loginWith(api, DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password, from), WINDOW);
      const elsewhere = await loginWith(api, DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password, { 'X-Forwarded-For': '203.0.113.8' });
      expect(elsewhere.status).toBe(201);
    });

    it('a successful login does not clear the address’s failures', async () => {
      const from = { 'X-Forwarded-For': '203.0.113.9' };
      for (let i = 0; i < 3; i++) expect((await loginWith(api, `other${i}@example.com`, 'wrong-password', from)).status).toBe(401);
      expect((await loginWith(api, DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password, from)).status).toBe(201);
      expect((await loginWith(api, 'other9@example.com', 'wrong-password', from)).status).toBe(401);
      expectRateLimited(await loginWith(api, DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password, from), WINDOW);
    });
  });

  describe('failures per client address without a trusted proxy (loginFailuresPerAddress = 3)', () => {
    const WINDOW = 60;
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi({}, { identity: { policy: throttle({ loginFailuresPerEmail: 100, loginFailuresPerAddress: 3, windowSeconds: WINDOW }) } });
    });
    afterAll(() => api.close());

    it('counts across different emails, and a forged X-Forwarded-For does not escape the limit', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await loginWith(api, `forger${i}@example.com`, 'wrong-password', { 'X-Forwarded-For': `198.51.100.${i + 1}` });
        expect(res.status).toBe(401);
      }
      expectRateLimited(await loginWith(api, DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password), WINDOW);
      expectRateLimited(await loginWith(api, DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password, { 'X-Forwarded-For': '198.51.100.200' }), WINDOW);
    });

    it('keys the throttle on the peer address, whatever X-Forwarded-For says', async () => {
      const keys = await api.sql<{ key: string }>(`SELECT DISTINCT key FROM auth_attempts WHERE kind = 'login-address'`);
      expect(keys.map((k) => k.key)).toEqual(['127.0.0.1']);
    });
  });

  describe('no lock-out of a victim from another address (defaults, TRUST_PROXY=loopback)', () => {
    const WINDOW = DEFAULT_IDENTITY_POLICY.throttle.windowSeconds;
    const A = { 'X-Forwarded-For': '203.0.113.66' };
    const B = { 'X-Forwarded-For': '198.51.100.20' };
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi({ TRUST_PROXY: 'loopback' });
    });
    afterAll(() => api.close());

    it('many failures for one email from address A: A gets 429, the right password from B logs in', async () => {
      const { email, password } = DEMO_ACCOUNTS.alice;
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await loginWith(api, email, `wrong-password-${i}`, A)).status);
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(25).fill(429)]);
      expectRateLimited(await loginWith(api, email, password, A), WINDOW);
      const fromB = await loginWith(api, email, password, B);
      expect(fromB.status).toBe(201);
      expect(fromB.body.authToken).toEqual(expect.any(String));
      // And from B a wrong password is still an ordinary 401.
      expect((await loginWith(api, email, 'wrong-password', B)).status).toBe(401);
    });

    it('keys the throttles on the forwarded client address', async () => {
      const keys = await api.sql<{ key: string }>(`SELECT DISTINCT key FROM auth_attempts WHERE kind = 'login-address' ORDER BY key`);
      expect(keys.map((k) => k.key)).toEqual(['198.51.100.20', '203.0.113.66']);
    });

    it('answers a throttled unknown email exactly as a throttled existing one (no enumeration)', async () => {
      const from = { 'X-Forwarded-For': '203.0.113.77' };
      for (const email of [DEMO_ACCOUNTS.bob.email, 'nobody-here@example.com']) {
        for (let i = 0; i < 5; i++) expect((await loginWith(api, email, 'wrong-password', from)).status).toBe(401);
      }
      const known = await loginWith(api, DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password, from);
      const unknown = await loginWith(api, 'nobody-here@example.com', DEMO_ACCOUNTS.bob.password, from);
      expectRateLimited(known, WINDOW);
      expectRateLimited(unknown, WINDOW);
      expect(unknown.text).toBe(known.text);
      expect(Math.abs(Number(unknown.headers.get('retry-after')) - Number(known.headers.get('retry-after')))).toBeLessThanOrEqual(1);
      const names = (res: ApiResponse) => [...res.headers.keys()].filter((name) => !['date', 'x-request-id', 'retry-after'].includes(name)).sort();
      expect(names(unknown)).toEqual(names(known));
    });

    it('counts an IPv6 client by its /64 network', async () => {
      const { email, password } = DEMO_ACCOUNTS.bob;
      for (let i = 1; i <= 5; i++) expect((await loginWith(api, email, 'wrong-password', { 'X-Forwarded-For': `2001:db8:1:2::${i}` })).status).toBe(401);
      expectRateLimited(await loginWith(api, email, password, { 'X-Forwarded-For': '2001:db8:1:2:ffff:ffff:ffff:ffff' }), WINDOW);
      expect((await loginWith(api, email, password, { 'X-Forwarded-For': '2001:db8:1:3::1' })).status).toBe(201);
      const keys = await api.sql<{ key: string }>(`SELECT DISTINCT key FROM auth_attempts WHERE kind = 'login-address' AND key LIKE '2001:%'`);
      expect(keys.map((k) => k.key)).toEqual(['2001:db8:1:2::/64']);
    });
  });

  describe('registration (registrationsPerAddress = 3, TRUST_PROXY=loopback, 203.0.113.0/24)', () => {
    const WINDOW = 60;
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi(
        { TRUST_PROXY: 'loopback, 203.0.113.0/24' },
        { identity: { policy: throttle({ registrationsPerAddress: 3, windowSeconds: WINDOW }) } },
      );
    });
    afterAll(() => api.close());

    const account = (name: string) => ({ email: `${name}@example.com`, username: name, unique_username: name, password: `${name}-long-password` });
    const register = (body: object, headers: Record<string, string>, token?: string) => api.request('POST', '/users', { appId: DEMO_APP_ID, body, headers, token });
    const users = async () => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n;

    it('past the limit from one address: 429 with the envelope and Retry-After, and no account; refused requests count too', async () => {
      // The client behind two trusted proxies; what it put first in X-Forwarded-For is not believed.
      const from = { 'X-Forwarded-For': '192.0.2.99, 198.51.100.1, 203.0.113.9' };
      expect((await register(account('reg1'), from)).status).toBe(201);
      expect((await register(account('reg2'), from)).status).toBe(201);
      expect((await register({ ...account('reg3'), email: 'reg1@example.com' }, from)).status).toBe(422);
      const before = await users();
      const refused = await register(account('reg4'), from);
      expectRateLimited(refused, WINDOW);
      expect(refused.body).not.toHaveProperty('authToken');
      expect(await users()).toBe(before);
      const keys = await api.sql<{ key: string; n: number }>(`SELECT key, count(*)::int AS n FROM auth_attempts WHERE kind = 'register-address' GROUP BY key`);
      expect(keys).toEqual([{ key: '198.51.100.1', n: 3 }]);
    });

    it('another address still registers', async () => {
      expect((await register(account('reg5'), { 'X-Forwarded-For': '198.51.100.2' })).status).toBe(201);
    });

    it('an Admin registering accounts is not counted', async () => {
      const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
      const from = { 'X-Forwarded-For': '198.51.100.1' };
      for (const name of ['byadmin1', 'byadmin2']) expect((await register(account(name), from, admin)).status).toBe(201);
      expectRateLimited(await register(account('reg6'), from), WINDOW);
    });

    it('the window frees the address again (sliding window read from the database)', async () => {
      await api.sql(`UPDATE auth_attempts SET at = at - interval '${WINDOW + 1} seconds' WHERE kind = 'register-address'`);
      expect((await register(account('reg7'), { 'X-Forwarded-For': '198.51.100.1' })).status).toBe(201);
    });
  });

  describe('password reset requests (default: 3 per email)', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi();
    });
    afterAll(() => api.close());

    it('the 4th request for one address within the window is 429; only 3 mails go out', async () => {
      for (let i = 0; i < 3; i++) {
        expect((await api.request('POST', '/users/reset_password', { body: { email: DEMO_ACCOUNTS.bob.email } })).status).toBe(200);
      }
      const res = await api.request('POST', '/users/reset_password', { body: { email: DEMO_ACCOUNTS.bob.email } });
      expectRateLimited(res, DEFAULT_IDENTITY_POLICY.throttle.windowSeconds);
      expect(await api.sql('SELECT 1 FROM mail_outbox WHERE recipient = $1', [DEMO_ACCOUNTS.bob.email])).toHaveLength(3);
    });

    it('throttles an address without an account the same way', async () => {
      for (let i = 0; i < 3; i++) {
        expect((await api.request('POST', '/users/reset_password', { body: { email: 'nobody@example.com' } })).status).toBe(200);
      }
      const res = await api.request('POST', '/users/reset_password', { body: { email: 'nobody@example.com' } });
      expectRateLimited(res, DEFAULT_IDENTITY_POLICY.throttle.windowSeconds);
    });
  });

  describe('shared across instances (two servers on one database)', () => {
    const WINDOW = 60;
    const policy = throttle({ loginFailuresPerEmailAndAddress: 3, registrationsPerAddress: 2, windowSeconds: WINDOW });
    let a: TestApi;
    let b: RunningApi;
    beforeAll(async () => {
      a = await startTestApi({}, { identity: { policy } });
      const config = loadConfig({ DATABASE_URL: a.db.url, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false', LOG_LEVEL: 'silent' });
      b = await startApi(config, pino({ level: 'silent' }), { identity: { policy, argon2: TEST_ARGON2 } });
    });
    afterAll(async () => {
      await b?.close();
      await a.close();
    });

    const loginOnB = async (email: string, password: string) => {
      const res = await fetch(`${b.url}/api/2.0/user/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-App-Id': DEMO_APP_ID },
        body: JSON.stringify({ email, password }),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: JSON.parse(text) } as ApiResponse;
    };

    it('instance B serves the same accounts', async () => {
      expect(b.url).not.toBe(a.origin);
      expect((await loginOnB(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password)).status).toBe(201);
    });

    it('failures on instance A count on instance B (and the other way round)', async () => {
      expect((await loginWith(a, DEMO_ACCOUNTS.alice.email, 'wrong-password')).status).toBe(401);
      expect((await loginWith(a, DEMO_ACCOUNTS.alice.email, 'wrong-password')).status).toBe(401);
      expect((await loginOnB(DEMO_ACCOUNTS.alice.email, 'wrong-password')).status).toBe(401);
      expectRateLimited(await loginOnB(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password), WINDOW);
      expectRateLimited(await loginWith(a, DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password), WINDOW);
    });

    it('3 failures all on instance A lock the email on instance B', async () => {
      for (let i = 0; i < 3; i++) expect((await loginWith(a, DEMO_ACCOUNTS.admin.email, 'wrong-password')).status).toBe(401);
      expectRateLimited(await loginOnB(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password), WINDOW);
    });

    it('registrations on instance A and B count together', async () => {
      const account = (name: string) => ({ email: `${name}@example.com`, username: name, unique_username: name, password: `${name}-long-password` });
      const onB = (body: object) =>
        fetch(`${b.url}/api/2.0/users`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-App-Id': DEMO_APP_ID }, body: JSON.stringify(body) });
      expect((await a.request('POST', '/users', { appId: DEMO_APP_ID, body: account('shared1') })).status).toBe(201);
      expect((await onB(account('shared2'))).status).toBe(201);
      const refused = await a.request('POST', '/users', { appId: DEMO_APP_ID, body: account('shared3') });
      expectRateLimited(refused, WINDOW);
      expect((await onB(account('shared4'))).status).toBe(429);
    });
  });
});
