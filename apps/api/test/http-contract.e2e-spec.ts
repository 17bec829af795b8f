import { MAX_BODY_BYTES } from '@rc/shared-http';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

// The HTTP conventions of service-contract.md §3, checked over real HTTP against the production
// server. Endpoints are only vehicles here: the identity routes are the ones that exist.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const alice = { email: DEMO_ACCOUNTS.alice.email, password: DEMO_ACCOUNTS.alice.password };
const bob = { email: DEMO_ACCOUNTS.bob.email, password: DEMO_ACCOUNTS.bob.password };
const admin = { email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password };

/** A comma-separated header (Allow, Access-Control-Allow-*) as upper-cased items. */
function listHeader(res: ApiResponse, name: string): string[] {
  return (res.headers.get(name) ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
}

/** The API's error body and exact JSON content type. */
function expectError(res: ApiResponse, status: number, message?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.body).toMatchObject({ error: true, message: message ?? expect.any(String) });
}

/** Bytes, so that fetch sends no Content-Type header of its own (it adds text/plain for strings). */
function bytes(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

describe('HTTP conventions (service contract §3) over real HTTP', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  describe('success bodies', () => {
    it('answers 200 and 201 with Content-Type exactly application/json (no charset)', async () => {
      const login = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: alice });
      expect(login.status).toBe(201);
      expect(login.headers.get('content-type')).toBe('application/json');
      expect(login.body.authToken).toEqual(expect.any(String));

      const me = await api.request('GET', '/user', { token: login.body.authToken });
      expect(me.status).toBe(200);
      expect(me.headers.get('content-type')).toBe('application/json');
      expect(me.body.unique_username).toBe('alice');

      const reset = await api.request('POST', '/users/reset_password', { body: { email: 'nobody-ct@example.com' } });
      expect(reset.status).toBe(200);
      expect(reset.headers.get('content-type')).toBe('application/json');
    });

    it('indents the JSON with ?pretty (no value, =1, =false) and sends it compact without', async () => {
      const token = await api.logIn(alice.email, alice.password);
      const compact = await api.request('GET', '/user', { token });
      expect(compact.status).toBe(200);
      expect(compact.text).not.toContain('\n');

      for (const query of ['?pretty', '?pretty=1', '?pretty=false']) {
        const pretty = await api.request('GET', `/user${query}`, { token });
        expect({ query, status: pretty.status, type: pretty.headers.get('content-type') }).toEqual({ query, status: 200, type: 'application/json' });
        expect(pretty.text).toContain('\n  ');
        expect(pretty.body).toEqual(compact.body);
      }

      const created = await api.request('POST', '/user/token?pretty', { appId: DEMO_APP_ID, body: bob });
      expect(created.status).toBe(201);
      expect(created.text).toContain('\n  ');
    });

    it('indents error bodies with ?pretty too', async () => {
      const notFound = await api.request('GET', '/no-such-endpoint?pretty');
      expectError(notFound, 404, 'Endpoint not found');
      expect(notFound.text).toContain('\n  ');
      const compact = await api.request('GET', '/no-such-endpoint');
      expect(compact.text).not.toContain('\n');
    });
  });

  describe('request bodies', () => {
    it('parses the body as JSON when no Content-Type header is sent', async () => {
      const res = await api.raw('POST', '/api/2.0/user/token', { headers: { 'X-App-Id': DEMO_APP_ID }, body: bytes(JSON.stringify(alice)) });
      expect(res.status).toBe(201);
      expect(res.body.unique_username).toBe('alice');
      expect(res.body.authToken).toEqual(expect.any(String));
    });

    it('parses the body as JSON when Content-Type is text/plain', async () => {
      const res = await api.raw('POST', '/api/2.0/user/token', {
        headers: { 'X-App-Id': DEMO_APP_ID, 'Content-Type': 'text/plain' },
        body: JSON.stringify(alice),
      });
      expect(res.status).toBe(201);
      expect(res.body.unique_username).toBe('alice');
    });

    it('answers invalid JSON with 400 and a fixed message that leaks no parser detail', async () => {
      for (const text of ['{"email": ', '{email: "a"}', "{'a': 1}", '{"a": 1,}', 'not json']) {
        const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: text });
        expect({ text, status: res.status }).toEqual({ text, status: 400 });
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(res.body).toEqual({ error: true, message: 'Invalid JSON in the request body' });
        expect(res.text).not.toMatch(/position|unexpected|token|line|column/i);
      }
    });

    it('answers invalid JSON with 400 even without a Content-Type header', async () => {
      const res = await api.raw('POST', '/api/2.0/user/token', { headers: { 'X-App-Id': DEMO_APP_ID }, body: bytes('{"email": "a@b.c",') });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: true, message: 'Invalid JSON in the request body' });
    });

    it('answers a body larger than 1 MiB with 413 and the JSON error body', async () => {
      const text = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(MAX_BODY_BYTES) });
      expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_BODY_BYTES);
      const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: text });
      expectError(res, 413);
      expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
    });

    it('answers a body of exactly MAX+1 bytes with 413, and accepts one of exactly 1 MiB', async () => {
      const prefix = '{"email":"a@example.com","password":"';
      const suffix = '"}';
      const sized = (n: number): string => prefix + 'x'.repeat(n - prefix.length - suffix.length) + suffix;
      expect(MAX_BODY_BYTES).toBe(1024 * 1024);

      const over = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: sized(MAX_BODY_BYTES + 1) });
      expectError(over, 413);

      const atLimit = sized(MAX_BODY_BYTES);
      expect(Buffer.byteLength(atLimit)).toBe(MAX_BODY_BYTES);
      const ok = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: atLimit });
      expect(ok.status).not.toBe(413);
      // Parsed, then refused by the DTO (the password is far beyond its bound).
      expect(ok.status).toBe(422);
    });

    it('accepts a valid JSON body just under 1 MiB (not 413)', async () => {
      const text = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(MAX_BODY_BYTES - 1000) });
      expect(Buffer.byteLength(text)).toBeLessThan(MAX_BODY_BYTES);
      const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: text });
      expect(res.status).not.toBe(413);
      expect([401, 422]).toContain(res.status);
      expect(res.body.error).toBe(true);
    });

    it('answers JSON that is not an object (array, string, number, boolean, null) with 422 naming the body', async () => {
      for (const text of ['[]', '[{"email":"a@example.com","password":"x"}]', '"a string"', '42', 'true', 'null']) {
        const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: text });
        expect({ text, status: res.status }).toEqual({ text, status: 422 });
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
        expect(res.body.errors).toEqual([{ field: '(body)', message: expect.any(String) }]);
      }
    });

    it('treats no body at all (and an empty one) as an empty object: 422 for the missing fields', async () => {
      for (const body of [undefined, '']) {
        const res = await api.raw('POST', '/api/2.0/user/token', {
          headers: { 'X-App-Id': DEMO_APP_ID, 'Content-Type': 'application/json' },
          body,
        });
        expect({ body, status: res.status }).toEqual({ body, status: 422 });
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
        const fields = (res.body.errors as { field: string }[]).map((e) => e.field);
        expect(new Set(fields)).toEqual(new Set(['email', 'password']));
      }
    });
  });

  describe('routes', () => {
    it('answers an unknown route under /api/2.0 with a JSON 404 "Endpoint not found"', async () => {
      for (const [method, path] of [
        ['GET', '/no-such-endpoint'],
        ['POST', '/no-such-endpoint'],
        ['GET', '/user/token/nope'],
        ['DELETE', '/widgets/1'],
      ] as const) {
        const res = await api.request(method, path, { body: method === 'POST' ? { a: 1 } : undefined });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(res.body).toEqual({ error: true, message: 'Endpoint not found' });
      }
    });

    it('answers another version prefix, the root and /api with a JSON 404 (never HTML)', async () => {
      for (const path of ['/api/1.0/user', '/api/2.1/user', '/api/2.0.1/user', '/', '/api', '/api/', '/user', '/index.html']) {
        const res = await api.raw('GET', path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(res.body).toEqual({ error: true, message: 'Endpoint not found' });
        expect(res.text).not.toMatch(/<html|<pre|<!DOCTYPE/i);
      }
      const post = await api.raw('POST', '/api/1.0/user/token', { headers: { 'Content-Type': 'application/json', 'X-App-Id': DEMO_APP_ID }, body: JSON.stringify(alice) });
      expect(post.status).toBe(404);
      expect(post.body).toEqual({ error: true, message: 'Endpoint not found' });
    });

    it('answers a malformed percent-encoding in the path with a JSON 400, not 500 or HTML', async () => {
      for (const path of ['/api/2.0/user/%ff', '/api/2.0/%E0%A4%A']) {
        const res = await api.raw('GET', path);
        expect({ path, status: res.status }).toEqual({ path, status: 400 });
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(res.body).toEqual({ error: true, message: expect.any(String) });
      }
    });

    it('does not offer impersonation when IMPERSONATION is off (404)', async () => {
      const token = await api.logIn(admin.email, admin.password);
      const res = await api.request('POST', '/user/token/impersonate', { token, body: { userid: 2 } });
      expectError(res, 404, 'Endpoint not found');
    });

    it('answers a known path with a wrong method with 405 and an Allow header of the real methods', async () => {
      const getToken = await api.request('GET', '/user/token');
      expectError(getToken, 405);
      const allowToken = listHeader(getToken, 'allow');
      expect(allowToken).toEqual(expect.arrayContaining(['POST', 'DELETE', 'OPTIONS']));
      expect(allowToken).not.toContain('GET');
      expect(allowToken).not.toContain('HEAD');

      const putUsers = await api.request('PUT', '/users', { body: { a: 1 } });
      expectError(putUsers, 405);
      expect(listHeader(putUsers, 'allow')).toEqual(expect.arrayContaining(['POST', 'OPTIONS']));
      expect(listHeader(putUsers, 'allow')).not.toContain('PUT');

      const putUser = await api.request('PUT', '/user', { body: { a: 1 } });
      expectError(putUser, 405);
      expect(listHeader(putUser, 'allow')).toEqual(expect.arrayContaining(['GET', 'HEAD', 'PATCH', 'OPTIONS']));
      expect(listHeader(putUser, 'allow')).not.toContain('PUT');

      const getConfirm = await api.request('GET', '/users/reset_password/confirm');
      expectError(getConfirm, 405);
      expect(listHeader(getConfirm, 'allow')).toContain('POST');
    });

    it('answers a 405 before the guards run (no app id, no token needed to learn the methods)', async () => {
      const res = await api.request('DELETE', '/users', { headers: { Authorization: 'api nonsense' } });
      expectError(res, 405);
      expect(listHeader(res, 'allow')).toContain('POST');
    });

    it('does not answer HEAD on a GET route with 405', async () => {
      const anonymous = await api.raw('HEAD', '/api/2.0/user');
      expect(anonymous.status).not.toBe(405);
      expect(anonymous.status).toBe(401);

      const token = await api.logIn(alice.email, alice.password);
      const signedIn = await api.raw('HEAD', '/api/2.0/user', { headers: { Authorization: `api ${token}` } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.text).toBe('');
    });

    it('ignores unknown query parameters (lang, langid, bare flags)', async () => {
      const login = await api.request('POST', '/user/token?lang=en&langid=fr&withDisplayTitles', { appId: DEMO_APP_ID, body: alice });
      expect(login.status).toBe(201);
      expect(login.body.authToken).toEqual(expect.any(String));

      const me = await api.request('GET', '/user?lang=en&langid=fr&withDisplayTitles&limit=nonsense', { token: login.body.authToken });
      expect(me.status).toBe(200);
      expect(me.body.unique_username).toBe('alice');
    });
  });

  describe('error bodies', () => {
    it('refuses NUL in any text of a body with 422 naming the field, never 500 (PostgreSQL cannot store it)', async () => {
      const inEmail = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: 'a\u0000@example.com', password: 'x' } });
      expectError(inEmail, 422);
      expect(inEmail.body.errors).toEqual([{ field: 'email', message: 'Text may not contain NUL characters' }]);
      const inKey = await api.request('POST', '/users/reset_password', { body: { ['em\u0000ail']: 'x' } });
      expectError(inKey, 422);
    });

    it('reports one violation per field (a wrong type is not also "too long")', async () => {
      const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: 123, password: 'x' } });
      expectError(res, 422);
      expect(res.body.errors).toEqual([{ field: 'email', message: 'email must be a string' }]);
    });

    it('routes are case-sensitive: /API/2.0/USER is not /api/2.0/user', async () => {
      const res = await api.raw('GET', '/API/2.0/USER');
      expectError(res, 404, 'Endpoint not found');
    });

    it('names an unknown field of the body in a 422 errors list', async () => {
      const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { ...alice, rememberMe: true } });
      expectError(res, 422);
      expect(res.body.errors).toEqual(expect.arrayContaining([{ field: 'rememberMe', message: expect.any(String) }]));
      for (const e of res.body.errors) expect(Object.keys(e).sort()).toEqual(['field', 'message']);
      expect(res.body.errors.map((e: { field: string }) => e.field)).not.toContain('email');
    });

    it('names a field of the wrong type in a 422 errors list', async () => {
      const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: 123, password: alice.password } });
      expectError(res, 422);
      // One entry per broken rule of the field (here: not a string, and so not of a valid length).
      expect(res.body.errors.length).toBeGreaterThanOrEqual(1);
      for (const e of res.body.errors) expect(e).toEqual({ field: 'email', message: expect.any(String) });
      expect(res.body.errors).toEqual(expect.arrayContaining([{ field: 'email', message: expect.stringMatching(/string/) }]));
      expect(Object.keys(res.body).sort()).toEqual(['error', 'errors', 'message']);
    });

    it('sends only error and message on other errors', async () => {
      for (const res of [
        await api.request('GET', '/user'),
        await api.request('POST', '/user/token', { body: alice }),
        await api.request('GET', '/nope'),
        await api.request('GET', '/user/token'),
        await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: alice.email, password: 'wrong password' } }),
      ]) {
        expect(res.body.error).toBe(true);
        expect(typeof res.body.message).toBe('string');
        expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
      }
    });
  });

  describe('X-Request-Id', () => {
    it('is on every response: 200, 201, 400, 401, 404, 405, 413 and outside the API prefix', async () => {
      const token = await api.logIn(alice.email, alice.password);
      const responses: [string, ApiResponse][] = [
        ['200', await api.request('GET', '/user', { token })],
        ['201', await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: bob })],
        ['400 json', await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: '{oops' })],
        ['400 app id', await api.request('POST', '/user/token', { body: alice })],
        ['401', await api.request('GET', '/user')],
        ['404', await api.request('GET', '/nope')],
        ['404 root', await api.raw('GET', '/')],
        ['405', await api.request('GET', '/user/token')],
        ['413', await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: JSON.stringify({ email: 'x'.repeat(MAX_BODY_BYTES) }) })],
      ];
      const ids = new Set<string>();
      for (const [label, res] of responses) {
        const id = res.headers.get('x-request-id');
        expect({ label, id }).toEqual({ label, id: expect.stringMatching(UUID) });
        ids.add(id!);
      }
      expect(ids.size).toBe(responses.length);
    });

    it('echoes a well-formed incoming X-Request-Id', async () => {
      for (const id of ['abc-123', 'trace:1.2_3', 'a'.repeat(128)]) {
        const ok = await api.request('POST', '/users/reset_password', { headers: { 'X-Request-Id': id }, body: { email: 'nobody-rid@example.com' } });
        expect(ok.headers.get('x-request-id')).toBe(id);
      }
      const notFound = await api.request('GET', '/nope', { headers: { 'X-Request-Id': 'abc-123' } });
      expect(notFound.headers.get('x-request-id')).toBe('abc-123');
      const badJson = await api.request('POST', '/user/token', { headers: { 'X-Request-Id': 'abc-123' }, body: '{' });
      expect(badJson.status).toBe(400);
      expect(badJson.headers.get('x-request-id')).toBe('abc-123');
    });

    it('replaces a malformed X-Request-Id (too long, spaces, odd characters) with a new UUID', async () => {
      for (const id of ['a'.repeat(300), 'a'.repeat(129), 'abc 123', 'abc<script>', 'a/b', 'a,b']) {
        const res = await api.request('GET', '/user', { headers: { 'X-Request-Id': id } });
        const echoed = res.headers.get('x-request-id');
        expect({ id, echoed }).toEqual({ id, echoed: expect.stringMatching(UUID) });
        expect(echoed).not.toBe(id);
      }
    });

    it('logs each request with its request id, method, path and status', async () => {
      const res = await api.request('GET', '/user', { headers: { 'X-Request-Id': 'logged-request-1' } });
      expect(res.status).toBe(401);
      const line = api.logs.find((l) => l['requestId'] === 'logged-request-1');
      expect(line).toMatchObject({ level: 30, msg: 'request', method: 'GET', path: '/api/2.0/user', status: 401 });

      const generated = await api.request('GET', '/user/token');
      expect(generated.status).toBe(405);
      const id = generated.headers.get('x-request-id');
      expect(id).toMatch(REQUEST_ID);
      expect(api.logs.find((l) => l['requestId'] === id)).toMatchObject({ method: 'GET', path: '/api/2.0/user/token', status: 405 });

      await api.request('GET', '/nope', { headers: { 'X-Request-Id': 'logged-unknown-route' } });
      expect(api.logs.find((l) => l['requestId'] === 'logged-unknown-route')).toMatchObject({ path: '/api/2.0/nope', status: 404 });
    });
  });

  describe('CORS (default: any origin)', () => {
    it('answers a cross-origin GET with Access-Control-Allow-Origin: *', async () => {
      const token = await api.logIn(alice.email, alice.password);
      const ok = await api.request('GET', '/user', { token, headers: { Origin: 'https://app.example' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('puts Access-Control-Allow-Origin on error responses too (401, 404, 405, 400)', async () => {
      const headers = { Origin: 'https://app.example' };
      for (const res of [
        await api.request('GET', '/user', { headers }),
        await api.request('GET', '/nope', { headers }),
        await api.request('GET', '/user/token', { headers }),
        await api.request('POST', '/user/token', { headers, body: '{' }),
        await api.raw('GET', '/api/1.0/user', { headers }),
      ]) {
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
      }
    });

    it('answers a preflight with 204, the allowed methods and the Authorization, X-App-Id, Content-Type headers', async () => {
      const res = await api.raw('OPTIONS', '/api/2.0/user/token', {
        headers: {
          Origin: 'https://app.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,x-app-id,content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(listHeader(res, 'access-control-allow-methods')).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
      expect(listHeader(res, 'access-control-allow-headers')).toEqual(expect.arrayContaining(['AUTHORIZATION', 'X-APP-ID', 'CONTENT-TYPE']));
    });

    it('answers a preflight on any API path with 204 (not 404 or 405)', async () => {
      for (const path of ['/api/2.0/user', '/api/2.0/users/reset_password', '/api/2.0/guides/1']) {
        const res = await api.raw('OPTIONS', path, { headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PUT' } });
        expect({ path, status: res.status }).toEqual({ path, status: 204 });
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
      }
    });
  });

  describe('tokens', () => {
    it('ignores an invalid token on routes that do not need one', async () => {
      const headers = { Authorization: 'api nonsense' };
      const reset = await api.request('POST', '/users/reset_password', { headers, body: { email: 'nobody-token@example.com' } });
      expect(reset.status).toBe(200);
      const login = await api.request('POST', '/user/token', { headers, appId: DEMO_APP_ID, body: alice });
      expect(login.status).toBe(201);
      expect(login.body.unique_username).toBe('alice');
    });

    it('answers 401 for an invalid token where one is needed', async () => {
      const res = await api.request('GET', '/user', { headers: { Authorization: 'api nonsense' } });
      expectError(res, 401);
    });

    it('answers 401 for a valid token under another scheme (Bearer)', async () => {
      const token = await api.logIn(alice.email, alice.password);
      const bearer = await api.request('GET', '/user', { headers: { Authorization: `Bearer ${token}` } });
      expectError(bearer, 401);
      const control = await api.request('GET', '/user', { token });
      expect(control.status).toBe(200);
    });

    it('answers 401 "Authentication required" without an Authorization header', async () => {
      const res = await api.request('GET', '/user');
      expectError(res, 401, 'Authentication required');
      const logout = await api.request('DELETE', '/user/token');
      expectError(logout, 401, 'Authentication required');
    });

    it('treats a deleted (logged-out) token as 401 where needed and ignores it elsewhere', async () => {
      const token = await api.logIn(bob.email, bob.password);
      const out = await api.request('DELETE', '/user/token', { token });
      expect(out.status).toBe(204);
      expectError(await api.request('GET', '/user', { token }), 401);
      const login = await api.request('POST', '/user/token', { token, appId: DEMO_APP_ID, body: bob });
      expect(login.status).toBe(201);
    });
  });

  describe('with IMPERSONATION=true', () => {
    let imp: TestApi;
    beforeAll(async () => {
      imp = await startTestApi({ IMPERSONATION: 'true' });
    });
    afterAll(() => imp.close());

    it('answers a non-admin with 403 and requiredPrivileges ["Admin"]', async () => {
      const token = await imp.logIn(alice.email, alice.password);
      const res = await imp.request('POST', '/user/token/impersonate', { token, body: { userid: 1 } });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body).toEqual({ error: true, message: expect.any(String), requiredPrivileges: ['Admin'] });
    });

    it('answers without a token with 401 (no requiredPrivileges)', async () => {
      const res = await imp.request('POST', '/user/token/impersonate', { body: { userid: 1 } });
      expectError(res, 401);
      expect(res.body.requiredPrivileges).toBeUndefined();
    });

    it('lets an admin impersonate (control: the route exists and works)', async () => {
      const token = await imp.logIn(admin.email, admin.password);
      const [row] = await imp.sql<{ id: number }>('SELECT id FROM users WHERE lower(email) = $1', [alice.email]);
      const res = await imp.request('POST', '/user/token/impersonate', { token, body: { userid: Number(row!.id) } });
      expect(res.status).toBe(201);
      expect(res.body.unique_username).toBe('alice');
    });
  });

  describe('with CORS_ORIGINS=https://good.example', () => {
    let cors: TestApi;
    beforeAll(async () => {
      cors = await startTestApi({ CORS_ORIGINS: 'https://good.example' });
    });
    afterAll(() => cors.close());

    it('echoes an allowed origin', async () => {
      const res = await cors.request('POST', '/users/reset_password', { headers: { Origin: 'https://good.example' }, body: { email: 'nobody-cors@example.com' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://good.example');
      expect(res.headers.get('vary') ?? '').toMatch(/origin/i);
      const error = await cors.request('GET', '/user', { headers: { Origin: 'https://good.example' } });
      expect(error.status).toBe(401);
      expect(error.headers.get('access-control-allow-origin')).toBe('https://good.example');
    });

    it('sends no Access-Control-Allow-Origin to another origin', async () => {
      const res = await cors.request('POST', '/users/reset_password', { headers: { Origin: 'https://evil.example' }, body: { email: 'nobody-cors2@example.com' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const lookalike = await cors.request('GET', '/user', { headers: { Origin: 'https://good.example.evil.example' } });
      expect(lookalike.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await cors.raw('OPTIONS', '/api/2.0/user/token', {
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('answers an allowed preflight with that origin', async () => {
      const res = await cors.raw('OPTIONS', '/api/2.0/user/token', {
        headers: { Origin: 'https://good.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,x-app-id,content-type' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://good.example');
      expect(listHeader(res, 'access-control-allow-headers')).toEqual(expect.arrayContaining(['AUTHORIZATION', 'X-APP-ID', 'CONTENT-TYPE']));
    });
  });

  describe('guard order on POST /users with PUBLIC_REGISTRATION=false', () => {
    let closed: TestApi;
    const account = (n: string) => ({ email: `${n}@example.com`, username: `New ${n}`, unique_username: n, password: 'a long enough password' });
    beforeAll(async () => {
      closed = await startTestApi({ PUBLIC_REGISTRATION: 'false' });
    });
    afterAll(() => closed.close());

    it('checks the app id first: no X-App-Id and no token is 400 "Invalid app id"', async () => {
      expectError(await closed.request('POST', '/users', { body: account('carol') }), 400, 'Invalid app id');
      expectError(await closed.request('POST', '/users', { appId: 'unknown-app', body: account('carol') }), 400, 'Invalid app id');
      const withBadToken = await closed.request('POST', '/users', { headers: { Authorization: 'api nonsense' }, body: account('carol') });
      expectError(withBadToken, 400, 'Invalid app id');
      // Before the body too: an invalid body without an app id is still the app id's 400.
      expectError(await closed.request('POST', '/users', { body: { nonsense: true } }), 400, 'Invalid app id');
    });

    it('then the token: a valid app id without a token is 401', async () => {
      expectError(await closed.request('POST', '/users', { appId: DEMO_APP_ID, body: account('carol') }), 401);
      expectError(await closed.request('POST', '/users', { appId: DEMO_APP_ID, headers: { Authorization: 'api nonsense' }, body: account('carol') }), 401);
    });

    it('then the privileges: a non-admin token is 403', async () => {
      const token = await closed.logIn(alice.email, alice.password);
      const res = await closed.request('POST', '/users', { appId: DEMO_APP_ID, token, body: account('carol') });
      expectError(res, 403);
      expect(res.body.requiredPrivileges).toEqual(['Admin']);
    });

    it('lets an admin register an account: 201', async () => {
      const token = await closed.logIn(admin.email, admin.password);
      const res = await closed.request('POST', '/users', { appId: DEMO_APP_ID, token, body: account('carol') });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body).toMatchObject({ unique_username: 'carol', authToken: expect.any(String) });
      const rows = await closed.sql('SELECT 1 FROM users WHERE unique_username = $1', ['carol']);
      expect(rows).toHaveLength(1);
    });
  });

  describe('unexpected errors', () => {
    let broken: TestApi;
    beforeAll(async () => {
      broken = await startTestApi();
    });
    afterAll(() => broken.close());

    it('answers 500 "Internal server error" with no detail, and logs the error at level 50', async () => {
      const token = await broken.logIn(alice.email, alice.password);
      await broken.sql('ALTER TABLE users RENAME TO users_gone');
      let res: ApiResponse;
      try {
        res = await broken.request('GET', '/user', { token, headers: { 'X-Request-Id': 'boom-500' } });
      } finally {
        await broken.sql('ALTER TABLE users_gone RENAME TO users');
      }
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('x-request-id')).toBe('boom-500');
      expect(res.body).toEqual({ error: true, message: 'Internal server error' });
      expect(res.text).not.toMatch(/users|relation|select|from|stack|\.ts|\.js|at /i);

      const errors = broken.logs.filter((l) => l['level'] === 50);
      expect(errors.length).toBeGreaterThanOrEqual(1);
      expect(errors).toEqual(expect.arrayContaining([expect.objectContaining({ requestId: 'boom-500', err: expect.anything() })]));

      // The server recovers once the table is back.
      const again = await broken.request('GET', '/user', { token });
      expect(again.status).toBe(200);
    });
  });
});
