import { createHash } from 'node:crypto';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { anImage } from './support/images.js';

/** The fields of a UserInfo body seen by its own user (GET /user, login, registration), plus `authToken`. */
const SELF_USER_KEYS = [
  'about_raw',
  'about_rendered',
  'authToken',
  'badge_counts',
  'certification_count',
  'greatest_privilege',
  'image',
  'join_date',
  'langid',
  'links',
  'location',
  'privileges',
  'reputation',
  'summary',
  'teams',
  'unique_username',
  'unread_notification_count',
  'userid',
  'username',
];

const INVALID_APP_ID = { error: true, message: 'Invalid app id' };
const RESET_REQUESTED = 'If the address has an account, a password reset code has been sent to it.';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The `field`s listed by a 422 body. */
const fieldsOf = (res: ApiResponse) => [...new Set(((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field))];

describe('identity over HTTP', () => {
  let api: TestApi;
  let serial = 0;

  /** A distinct, valid registration body. */
  const newAccount = (prefix = 'user') => {
    serial += 1;
    const name = `${prefix}${serial}${Date.now().toString(36)}`.slice(0, 30);
    return { email: `${name}@example.com`, username: `User ${name}`, unique_username: name, password: `${name}-long-password` };
  };

  /** Registers a new account over HTTP; returns its body, credentials and first token. */
  const register = async (prefix?: string) => {
    const account = newAccount(prefix);
    const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return { ...account, userid: res.body.userid as number, token: res.body.authToken as string };
  };

  const login = (email: string, password: string, appId: string | null = DEMO_APP_ID) =>
    api.request('POST', '/user/token', { appId: appId ?? undefined, body: { email, password } });

  const me = (token: string) => api.request('GET', '/user', { token });

  /** A user's standing as the reputation and teams tables hold it (what user objects must show). */
  const standingOf = async (email: string) => {
    const [row] = await api.sql<{ reputation: number; bronze: number; silver: number; gold: number; total: number; teams: number[] }>(
      `SELECT coalesce((SELECT points FROM reputation_totals t WHERE t.user_id = u.id), 0) AS reputation,
              (SELECT count(*)::int FROM badge_awards a JOIN badges b ON b.id = a.badge_id WHERE a.user_id = u.id AND b.type = 'bronze') AS bronze,
              (SELECT count(*)::int FROM badge_awards a JOIN badges b ON b.id = a.badge_id WHERE a.user_id = u.id AND b.type = 'silver') AS silver,
              (SELECT count(*)::int FROM badge_awards a JOIN badges b ON b.id = a.badge_id WHERE a.user_id = u.id AND b.type = 'gold') AS gold,
              (SELECT count(*)::int FROM badge_awards a WHERE a.user_id = u.id) AS total,
              coalesce((SELECT array_agg(m.team_id ORDER BY m.team_id) FROM team_members m JOIN teams t ON t.id = m.team_id AND t.deleted_at IS NULL WHERE m.user_id = u.id), '{}') AS teams
         FROM users u WHERE u.email = $1`,
      [email],
    );
    const { reputation, teams, ...badges } = row!;
    return { reputation, teams, badge_counts: badges };
  };

  const countUsers = async () => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n;

  /** The reset code in the last mail sent to an address. */
  const lastResetCode = async (email: string): Promise<string> => {
    const [mail] = await api.sql<{ body: string }>('SELECT body FROM mail_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [email]);
    const code = /Code: (\S+)/.exec(mail?.body ?? '')?.[1];
    if (!code) throw new Error(`no reset code mailed to ${email}`);
    return code;
  };

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  describe('POST /user/token', () => {
    it('logs a demo user in: 201, the user object and a token that works on GET /user', async () => {
      const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: DEMO_ACCOUNTS.alice.email, password: DEMO_ACCOUNTS.alice.password } });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body).toMatchObject({ username: 'Alice Fixwell', unique_username: 'alice', privileges: ['User'], authToken: expect.any(String) });
      const me = await api.request('GET', '/user', { token: res.body.authToken });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ userid: res.body.userid, unique_username: 'alice', links: {}, unread_notification_count: 0 });
    });

    it('answers with the full UserInfo of the account plus authToken (exact key set)', async () => {
      const res = await login(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(SELF_USER_KEYS);
      const standing = await standingOf(DEMO_ACCOUNTS.bob.email);
      expect(standing.reputation).toBeGreaterThan(0); // the demo content earns Bob points
      expect(res.body).toMatchObject({
        userid: expect.any(Number),
        username: 'Bob Solder',
        unique_username: 'bob',
        join_date: expect.any(Number),
        image: anImage(),
        ...standing,
        privileges: ['User'],
        greatest_privilege: 'User',
        about_raw: false,
        about_rendered: false,
        langid: 'en',
      });
    });

    it('issues a distinct, high-entropy token on every login', async () => {
      const a = await login(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      const b = await login(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      expect(a.body.authToken).not.toBe(b.body.authToken);
      for (const token of [a.body.authToken, b.body.authToken] as string[]) {
        // ≥128 random bits: at least 22 base64url characters.
        expect(token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      }
    });

    it('accepts the email in any case and with surrounding spaces', async () => {
      const res = await login(`  ${DEMO_ACCOUNTS.bob.email.toUpperCase()} `, DEMO_ACCOUNTS.bob.password);
      expect(res.status).toBe(201);
      expect(res.body.unique_username).toBe('bob');
    });

    it('admin login reports privileges User and Admin', async () => {
      const res = await login(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ privileges: ['User', 'Admin'], greatest_privilege: 'Admin', links: { manage: '/Manage' } });
    });

    it('answers an unknown email and a wrong password identically (401, same body)', async () => {
      const unknown = await login('nobody-here@example.com', DEMO_ACCOUNTS.alice.password);
      const wrong = await login(DEMO_ACCOUNTS.alice.email, 'not-alices-password');
      const malformed = await login('not-an-email', 'whatever-password');
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(malformed.status).toBe(401);
      expect(unknown.body).toEqual({ error: true, message: 'Invalid login' });
      expect(wrong.text).toBe(unknown.text);
      expect(malformed.text).toBe(unknown.text);
      expect(wrong.headers.get('content-type')).toBe('application/json');
      // A good login afterwards clears alice's failure so later tests are not throttled.
      expect((await login(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password)).status).toBe(201);
    });

    it('refuses a missing X-App-Id: 400 Invalid app id', async () => {
      const res = await login(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password, null);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_APP_ID);
      expect(res.headers.get('content-type')).toBe('application/json');
    });

    it('refuses an unknown X-App-Id: 400 Invalid app id', async () => {
      const res = await login(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password, 'no-such-app-id');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_APP_ID);
    });

    it('refuses a malformed X-App-Id: 400 Invalid app id', async () => {
      const res = await login(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password, 'x');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_APP_ID);
    });

    it('refuses a revoked app id with 400 (it worked before the revocation)', async () => {
      await api.sql(`INSERT INTO app_ids (app_id, name, created_at) VALUES ('soon-revoked', 'test', now())`);
      expect((await login(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password, 'soon-revoked')).status).toBe(201);
      await api.sql(`UPDATE app_ids SET revoked_at = now() WHERE app_id = 'soon-revoked'`);
      const res = await login(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password, 'soon-revoked');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_APP_ID);
    });

    it('answers 422 naming `password` when the body has no password', async () => {
      const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: DEMO_ACCOUNTS.alice.email } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      expect(fieldsOf(res)).toContain('password');
      expect(fieldsOf(res)).not.toContain('email');
    });

    it('answers 422 naming `email` when the body has no email', async () => {
      const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { password: 'whatever-password' } });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['email']);
    });

    it('answers 422 for an unknown field and for a non-string password', async () => {
      const extra = await api.request('POST', '/user/token', {
        appId: DEMO_APP_ID,
        body: { email: DEMO_ACCOUNTS.alice.email, password: DEMO_ACCOUNTS.alice.password, remember: true },
      });
      expect(extra.status).toBe(422);
      expect(fieldsOf(extra)).toEqual(['remember']);
      const numeric = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: DEMO_ACCOUNTS.alice.email, password: 1234567890 } });
      expect(numeric.status).toBe(422);
      expect(fieldsOf(numeric)).toEqual(['password']);
    });

    it('refuses a disabled account with the same 401 as a wrong password, and its tokens stop working', async () => {
      const user = await register('disabled');
      await api.sql(`UPDATE users SET status = 'disabled' WHERE id = $1`, [user.userid]);
      const res = await login(user.email, user.password);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: true, message: 'Invalid login' });
      expect((await me(user.token)).status).toBe(401);
    });

    it('stores only the SHA-256 of the token, never the token itself', async () => {
      const res = await login(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      const token = res.body.authToken as string;
      const digests = (await api.sql<{ digest: string }>('SELECT digest FROM auth_tokens')).map((r) => r.digest);
      expect(digests).toContain(sha256(token));
      expect(digests).not.toContain(token);
      for (const digest of digests) expect(digest).toMatch(/^[0-9a-f]{64}$/);
    });

    it('gives tokens the default 30-day lifetime', async () => {
      const res = await login(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
      const [row] = await api.sql<{ seconds: number }>(
        'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM auth_tokens WHERE digest = $1',
        [sha256(res.body.authToken)],
      );
      expect(row?.seconds).toBe(30 * 24 * 3600);
    });
  });

  describe('GET /user', () => {
    it('returns the current user with exactly the UserInfo fields, echoing the token', async () => {
      const token = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      const res = await me(token);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(Object.keys(res.body).sort()).toEqual(SELF_USER_KEYS);
      expect(res.body).toMatchObject({
        username: 'Alice Fixwell',
        unique_username: 'alice',
        privileges: ['User'],
        ...(await standingOf(DEMO_ACCOUNTS.alice.email)),
        image: anImage(),
        langid: 'en',
        authToken: token,
      });
      const [row] = await api.sql<{ id: number; joined: number }>(
        `SELECT id, floor(extract(epoch FROM joined_at))::int AS joined FROM users WHERE email = $1`,
        [DEMO_ACCOUNTS.alice.email],
      );
      expect(res.body.userid).toBe(row!.id);
      expect(res.body.join_date).toBe(row!.joined);
      expect(res.body).not.toHaveProperty('email');
      expect(res.body).not.toHaveProperty('password_hash');
    });

    it('answers 401 without a token, with an unknown token, and with another scheme', async () => {
      const token = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      const none = await api.request('GET', '/user');
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ error: true, message: expect.any(String) });
      expect((await me('A'.repeat(43))).status).toBe(401);
      expect((await me('bad token!')).status).toBe(401);
      const bearer = await api.request('GET', '/user', { headers: { Authorization: `Bearer ${token}` } });
      expect(bearer.status).toBe(401);
      // The digest of a live token is not a token.
      expect((await me(sha256(token))).status).toBe(401);
    });
  });

  describe('DELETE /user/token', () => {
    it('logs out: 204, the token used is 401 at once, another token of the user still works', async () => {
      const user = await register('logout');
      const second = await api.logIn(user.email, user.password);
      const res = await api.request('DELETE', '/user/token', { token: user.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await me(user.token)).status).toBe(401);
      expect((await api.request('DELETE', '/user/token', { token: user.token })).status).toBe(401);
      const other = await me(second);
      expect(other.status).toBe(200);
      expect(other.body.userid).toBe(user.userid);
      expect(await api.sql('SELECT 1 FROM auth_tokens WHERE digest = $1', [sha256(user.token)])).toHaveLength(0);
    });

    it('answers 401 without a token', async () => {
      const res = await api.request('DELETE', '/user/token');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: true });
    });
  });

  describe('POST /users', () => {
    it('registers: 201, the user object with authToken, and the account is logged in', async () => {
      const account = newAccount('carol');
      const before = await countUsers();
      const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(Object.keys(res.body).sort()).toEqual(SELF_USER_KEYS);
      expect(res.body).toMatchObject({
        userid: expect.any(Number),
        username: account.username,
        unique_username: account.unique_username,
        privileges: ['User'],
        greatest_privilege: 'User',
        reputation: 0,
        authToken: expect.any(String),
      });
      expect(await countUsers()).toBe(before + 1);
      const current = await me(res.body.authToken);
      expect(current.status).toBe(200);
      expect(current.body).toMatchObject({ userid: res.body.userid, unique_username: account.unique_username });
      // And the password works for a login.
      expect((await login(account.email, account.password)).status).toBe(201);
    });

    it('stores the password as an argon2id hash, never in clear', async () => {
      const user = await register('hash');
      const [row] = await api.sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.userid]);
      expect(row!.password_hash.startsWith('$argon2id$')).toBe(true);
      expect(row!.password_hash).not.toContain(user.password);
    });

    it('stores only the SHA-256 of the registration token', async () => {
      const user = await register('digest');
      const rows = await api.sql<{ digest: string }>('SELECT digest FROM auth_tokens WHERE user_id = $1', [user.userid]);
      expect(rows.map((r) => r.digest)).toEqual([sha256(user.token)]);
      const clear = await api.sql('SELECT 1 FROM auth_tokens WHERE digest = $1', [user.token]);
      expect(clear).toHaveLength(0);
    });

    it('normalises the email to lower case (login works in any case)', async () => {
      const account = { ...newAccount('mixed'), email: '' };
      account.email = `${account.unique_username.toUpperCase()}@Example.COM`;
      const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account });
      expect(res.status).toBe(201);
      const [row] = await api.sql<{ email: string }>('SELECT email FROM users WHERE id = $1', [res.body.userid]);
      expect(row!.email).toBe(account.email.toLowerCase());
      expect((await login(account.email.toLowerCase(), account.password)).status).toBe(201);
    });

    it('replaces an unusable display name with one derived from the email', async () => {
      const account = { ...newAccount('dn'), username: '   ' };
      const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account });
      expect(res.status).toBe(201);
      expect(res.body.username).toBe(account.email.slice(0, account.email.indexOf('@')));
    });

    it('accepts passwords of exactly 10 and exactly 1024 characters', async () => {
      for (const password of ['p'.repeat(10), 'q'.repeat(1024)]) {
        const account = { ...newAccount('bound'), password };
        const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account });
        expect(res.status).toBe(201);
        expect((await login(account.email, password)).status).toBe(201);
      }
    });

    it('needs a registered X-App-Id: 400 without one or with an unknown one, no account created', async () => {
      const before = await countUsers();
      const missing = await api.request('POST', '/users', { body: newAccount('noapp') });
      const unknown = await api.request('POST', '/users', { appId: 'unknown-app', body: newAccount('noapp') });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual(INVALID_APP_ID);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual(INVALID_APP_ID);
      expect(await countUsers()).toBe(before);
    });

    describe('refuses invalid registrations with 422 naming the field, and creates no account', () => {
      const cases: [string, () => Record<string, unknown>, string][] = [
        ['a malformed email', () => ({ ...newAccount('bad'), email: 'not-an-email' }), 'email'],
        ['an email with a space', () => ({ ...newAccount('bad'), email: 'a b@example.com' }), 'email'],
        ['a 9-character password', () => ({ ...newAccount('bad'), password: '123456789' }), 'password'],
        ['a 1025-character password', () => ({ ...newAccount('bad'), password: 'x'.repeat(1025) }), 'password'],
        ['a duplicate email differing only in case', () => ({ ...newAccount('bad'), email: 'ALICE@Example.com' }), 'email'],
        ['a duplicate unique_username differing only in case', () => ({ ...newAccount('bad'), unique_username: 'ALICE' }), 'unique_username'],
        ['a malformed unique_username', () => ({ ...newAccount('bad'), unique_username: 'no spaces allowed' }), 'unique_username'],
        ['an unknown field', () => ({ ...newAccount('bad'), role: 'Admin' }), 'role'],
        ['a missing password', () => ({ ...newAccount('bad'), password: undefined }), 'password'],
      ];

      it.each(cases)('%s', async (_name, body, field) => {
        const before = await countUsers();
        const payload = body();
        const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: payload });
        expect(res.status).toBe(422);
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(res.body).toMatchObject({ error: true, message: expect.any(String), errors: expect.any(Array) });
        expect(fieldsOf(res)).toContain(field);
        for (const e of res.body.errors as { message: unknown }[]) expect(typeof e.message).toBe('string');
        expect(await countUsers()).toBe(before);
        if (typeof payload['unique_username'] === 'string' && payload['unique_username'] !== 'ALICE') {
          expect(await api.sql('SELECT 1 FROM users WHERE lower(unique_username) = lower($1)', [payload['unique_username']])).toHaveLength(0);
        }
      });

      it('lists every broken rule at once (email, password, unique_username)', async () => {
        const before = await countUsers();
        const res = await api.request('POST', '/users', {
          appId: DEMO_APP_ID,
          body: { email: 'nope', username: 'Someone', unique_username: '!', password: 'short' },
        });
        expect(res.status).toBe(422);
        expect(fieldsOf(res).sort()).toEqual(['email', 'password', 'unique_username']);
        expect(await countUsers()).toBe(before);
      });

      it('names both fields when the email and the unique_username are both taken', async () => {
        const before = await countUsers();
        const res = await api.request('POST', '/users', {
          appId: DEMO_APP_ID,
          body: { email: 'Bob@example.com', username: 'Bob again', unique_username: 'BoB', password: 'a-long-enough-password' },
        });
        expect(res.status).toBe(422);
        expect(fieldsOf(res).sort()).toEqual(['email', 'unique_username']);
        expect(await countUsers()).toBe(before);
      });
    });

    it('20 concurrent registrations with one email: exactly one 201, the rest 422 on email, one row', async () => {
      const email = `race-${Date.now()}@example.com`;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api.request('POST', '/users', {
            appId: DEMO_APP_ID,
            body: { email, username: `Racer ${i}`, unique_username: `racer${i}x${Date.now() % 100000}`, password: 'race-condition-password' },
          }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 422)).toHaveLength(19);
      for (const r of results.filter((x) => x.status === 422)) expect(fieldsOf(r)).toEqual(['email']);
      const rows = await api.sql<{ id: number }>('SELECT id FROM users WHERE email = $1', [email]);
      expect(rows).toHaveLength(1);
      const winner = results.find((r) => r.status === 201)!;
      expect(rows[0]!.id).toBe(winner.body.userid);
      expect((await me(winner.body.authToken)).status).toBe(200);
      // Only the winner got a token.
      expect(await api.sql('SELECT 1 FROM auth_tokens WHERE user_id = $1', [winner.body.userid])).toHaveLength(1);
    });

    it('20 concurrent registrations with one unique_username (differing in case): exactly one 201', async () => {
      const name = `clash${Date.now() % 1000000}`;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api.request('POST', '/users', {
            appId: DEMO_APP_ID,
            body: { email: `clash-${i}-${name}@example.com`, username: `Clash ${i}`, unique_username: i % 2 ? name.toUpperCase() : name, password: 'race-condition-password' },
          }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 422)).toHaveLength(19);
      for (const r of results.filter((x) => x.status === 422)) expect(fieldsOf(r)).toEqual(['unique_username']);
      expect(await api.sql('SELECT 1 FROM users WHERE lower(unique_username) = $1', [name])).toHaveLength(1);
    });
  });

  describe('POST /users/reset_password and /confirm', () => {
    it('answers the same 200 body for an existing and an unknown address; mails a code only to the existing one', async () => {
      const user = await register('reset');
      const unknownEmail = `nobody-${Date.now()}@example.com`;
      const existing = await api.request('POST', '/users/reset_password', { body: { email: user.email } });
      const unknown = await api.request('POST', '/users/reset_password', { body: { email: unknownEmail } });
      expect(existing.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(existing.headers.get('content-type')).toBe('application/json');
      expect(existing.body).toEqual({ message: RESET_REQUESTED });
      expect(unknown.text).toBe(existing.text);
      expect(await api.sql('SELECT 1 FROM mail_outbox WHERE recipient = $1', [user.email])).toHaveLength(1);
      expect(await api.sql('SELECT 1 FROM mail_outbox WHERE recipient = $1', [unknownEmail])).toHaveLength(0);
      const [mail] = await api.sql<{ subject: string; body: string }>('SELECT subject, body FROM mail_outbox WHERE recipient = $1', [user.email]);
      expect(mail!.subject).toBe('Your password reset code');
      expect(mail!.body).toContain(user.unique_username);
    });

    it('stores the code hashed with a 1-hour validity; the code resets the password and revokes every token', async () => {
      const user = await register('confirm');
      const second = await api.logIn(user.email, user.password);
      expect((await api.request('POST', '/users/reset_password', { body: { email: user.email } })).status).toBe(200);
      const code = await lastResetCode(user.email);
      expect(code).toMatch(/^[A-Za-z0-9_-]{22,}$/);

      const rows = await api.sql<{ digest: string; seconds: number; used_at: Date | null }>(
        'SELECT digest, extract(epoch FROM expires_at - created_at)::int AS seconds, used_at FROM password_resets WHERE user_id = $1',
        [user.userid],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.digest).toBe(sha256(code));
      expect(rows[0]!.digest).not.toBe(code);
      expect(rows[0]!.seconds).toBe(3600);
      expect(rows[0]!.used_at).toBeNull();
      expect(await api.sql('SELECT 1 FROM password_resets WHERE digest = $1', [code])).toHaveLength(0);

      const newPassword = 'a-brand-new-password';
      const res = await api.request('POST', '/users/reset_password/confirm', { body: { code, password: newPassword } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body).toEqual({ message: expect.any(String) });

      const old = await login(user.email, user.password);
      expect(old.status).toBe(401);
      expect(old.body).toEqual({ error: true, message: 'Invalid login' });
      const fresh = await login(user.email, newPassword);
      expect(fresh.status).toBe(201);
      expect(fresh.body.userid).toBe(user.userid);
      expect((await me(user.token)).status).toBe(401);
      expect((await me(second)).status).toBe(401);
      expect((await me(fresh.body.authToken)).status).toBe(200);

      const [hash] = await api.sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.userid]);
      expect(hash!.password_hash.startsWith('$argon2id$')).toBe(true);

      const again = await api.request('POST', '/users/reset_password/confirm', { body: { code, password: 'yet-another-password' } });
      expect(again.status).toBe(422);
      expect(fieldsOf(again)).toEqual(['code']);
      expect((await login(user.email, newPassword)).status).toBe(201);
    });

    it('refuses an expired code with 422 (the password stays)', async () => {
      const user = await register('expired');
      await api.request('POST', '/users/reset_password', { body: { email: user.email } });
      const code = await lastResetCode(user.email);
      await api.sql(`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE digest = $1`, [sha256(code)]);
      const res = await api.request('POST', '/users/reset_password/confirm', { body: { code, password: 'a-brand-new-password' } });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['code']);
      expect((await login(user.email, user.password)).status).toBe(201);
      expect((await me(user.token)).status).toBe(200);
    });

    it('refuses an unknown code with 422', async () => {
      const res = await api.request('POST', '/users/reset_password/confirm', { body: { code: 'A'.repeat(43), password: 'a-brand-new-password' } });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['code']);
    });

    it('refuses a weak new password with 422 on `password`; the code still works afterwards', async () => {
      const user = await register('weak');
      await api.request('POST', '/users/reset_password', { body: { email: user.email } });
      const code = await lastResetCode(user.email);
      for (const password of ['short', 'y'.repeat(1025)]) {
        const weak = await api.request('POST', '/users/reset_password/confirm', { body: { code, password } });
        expect(weak.status).toBe(422);
        expect(fieldsOf(weak)).toEqual(['password']);
      }
      expect((await login(user.email, user.password)).status).toBe(201);
      const ok = await api.request('POST', '/users/reset_password/confirm', { body: { code, password: 'a-strong-new-password' } });
      expect(ok.status).toBe(200);
      expect((await login(user.email, 'a-strong-new-password')).status).toBe(201);
    });

    it('confirming one code voids the other outstanding codes of the account', async () => {
      const user = await register('twocodes');
      await api.request('POST', '/users/reset_password', { body: { email: user.email } });
      const first = await lastResetCode(user.email);
      await api.request('POST', '/users/reset_password', { body: { email: user.email } });
      const second = await lastResetCode(user.email);
      expect(second).not.toBe(first);
      expect((await api.request('POST', '/users/reset_password/confirm', { body: { code: second, password: 'second-new-password' } })).status).toBe(200);
      const stale = await api.request('POST', '/users/reset_password/confirm', { body: { code: first, password: 'first-new-password' } });
      expect(stale.status).toBe(422);
      expect((await login(user.email, 'second-new-password')).status).toBe(201);
    });

    it('two concurrent confirmations with one code: exactly one succeeds', async () => {
      const user = await register('raceconfirm');
      await api.request('POST', '/users/reset_password', { body: { email: user.email } });
      const code = await lastResetCode(user.email);
      const results = await Promise.all(
        ['concurrent-password-one', 'concurrent-password-two'].map((password) =>
          api.request('POST', '/users/reset_password/confirm', { body: { code, password } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    });

    it('refuses a malformed email with 422 on `email` and sends nothing', async () => {
      const before = (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM mail_outbox'))[0]!.n;
      const res = await api.request('POST', '/users/reset_password', { body: { email: 'not-an-email' } });
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['email']);
      const missing = await api.request('POST', '/users/reset_password', { body: {} });
      expect(missing.status).toBe(422);
      expect(fieldsOf(missing)).toEqual(['email']);
      expect((await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM mail_outbox'))[0]!.n).toBe(before);
    });
  });

  describe('POST /user/token/impersonate (IMPERSONATION off by default)', () => {
    it('does not exist: 404 even for an Admin', async () => {
      const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
      const [alice] = await api.sql<{ id: number }>('SELECT id FROM users WHERE email = $1', [DEMO_ACCOUNTS.alice.email]);
      const tokensOfAlice = async () => (await api.sql('SELECT 1 FROM auth_tokens WHERE user_id = $1', [alice!.id])).length;
      const before = await tokensOfAlice();
      const res = await api.request('POST', '/user/token/impersonate', { token: admin, appId: DEMO_APP_ID, body: { userid: alice!.id } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: true, message: 'Endpoint not found' });
      expect(await tokensOfAlice()).toBe(before);
    });
  });
});
