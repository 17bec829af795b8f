import { connect } from 'node:net';
import { MAX_JSON_DEPTH } from '@rc/shared-http';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

// Request bodies and requests built to break the server: deep nesting, text that is not Unicode,
// keys that name prototypes, a null or BOM-prefixed body, and requests Node's HTTP parser refuses.
// Each must be answered with a status of the contract and its JSON error body, writing nothing.

type Who = 'alice' | 'admin';

/** The API's error body and exact JSON content type. */
function expectError(res: ApiResponse, status: number, message?: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.objectContaining({ error: true, message: message ?? expect.any(String) }) });
  expect(res.headers.get('content-type')).toBe('application/json');
}

const TOO_DEEP = 'Request body is nested too deeply';
const NOT_UNICODE = 'Request body contains text that is not valid Unicode';
const INVALID_JSON = 'Invalid JSON in the request body';

/** `depth` nested arrays around `inner`: `[[[inner]]]`. */
const arrays = (depth: number, inner = ''): string => '['.repeat(depth) + inner + ']'.repeat(depth);
/** `depth` nested objects: `{"a":{"a":…{}…}}`. */
const objects = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

/** UTF-8 bytes of `before`, then `bytes` as they are, then UTF-8 bytes of `after`. */
const withBytes = (before: string, bytes: number[], after: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array([...Buffer.from(before, 'utf8'), ...bytes, ...Buffer.from(after, 'utf8')]);

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * Sends bytes as they are over a new TCP connection and reads the answer until the server closes
 * it (for requests fetch will not send). The request should ask for `Connection: close`.
 */
function rawRequest(origin: string, request: string | Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) });
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while this side still writes (an oversized header): the answer read so far counts.
    socket.on('error', (error) => (chunks.length ? undefined : reject(error)));
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no complete response: ${JSON.stringify(all)}`));
      const [statusLine, ...lines] = all.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const text = all.slice(split + 4);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, text, body });
    });
  });
}

/** The raw answer is the API's error body, sent with its exact length and content type. */
function expectRawError(res: RawResponse, status: number, message?: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error: true, message: message ?? expect.any(String) } });
  expect(res.headers['content-type']).toBe('application/json');
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
}

describe('hostile input over real HTTP', () => {
  let api: TestApi;
  const token: Record<Who, string> = { alice: '', admin: '' };
  let serial = 0;

  const guideCount = async () => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM guides'))[0]!.n;
  const pageCount = async () => (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM wiki_pages'))[0]!.n;
  const newGuide = async () => {
    serial += 1;
    const res = await api.request('POST', '/guides', { token: token.alice, body: { category: 'iPhone 12', type: 'repair', title: `Hostile guide ${serial}` } });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { guideid: number; revisionid: number };
  };
  const readGuide = async (guideid: number) => {
    const res = await api.request('GET', `/guides/${guideid}`, { token: token.alice });
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    api = await startTestApi();
    for (const who of ['alice', 'admin'] as const) token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
  });
  afterAll(() => api.close());

  describe('deeply nested JSON', () => {
    it(`answers a body nested 3,000 levels deep with 400 "${TOO_DEEP}" on an anonymous route, never 500`, async () => {
      for (const text of [arrays(3000), objects(3000), `{"email":${arrays(3000, '"a@example.com"')}}`]) {
        expect(Buffer.byteLength(text)).toBeGreaterThan(5000);
        const res = await api.request('POST', '/users/reset_password', { body: text });
        expectError(res, 400, TOO_DEEP);
        expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
      }
      const login = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: `{"email":"a@example.com","password":${objects(3000)}}` });
      expectError(login, 400, TOO_DEEP);
    });

    it('answers it on an authenticated write route too, and writes nothing', async () => {
      const before = await guideCount();
      const body = `{"category":"iPhone 12","type":"repair","title":"Deep","steps":${arrays(3000)}}`;
      expectError(await api.request('POST', '/guides', { token: token.alice, body }), 400, TOO_DEEP);
      expectError(await api.request('POST', '/guides', { token: token.alice, body: objects(6000) }), 400, TOO_DEEP);
      expect(await guideCount()).toBe(before);
    });

    it(`refuses depth ${MAX_JSON_DEPTH + 1} and parses depth ${MAX_JSON_DEPTH} (then the DTO answers)`, async () => {
      expect(MAX_JSON_DEPTH).toBe(64);
      const over = await api.request('POST', '/users/reset_password', { body: `{"email":${arrays(MAX_JSON_DEPTH)}}` });
      expectError(over, 400, TOO_DEEP);
      const at = await api.request('POST', '/users/reset_password', { body: `{"email":${arrays(MAX_JSON_DEPTH - 1)}}` });
      expectError(at, 422);
      expect(at.body.errors).toEqual([{ field: 'email', message: expect.any(String) }]);
    });

    it('answers it on a route that reads no body, and outside the API prefix, with 400 too', async () => {
      const guide = await newGuide();
      expectError(await api.request('PUT', `/guides/${guide.guideid}/completed`, { token: token.alice, body: arrays(3000) }), 400, TOO_DEEP);
      expectError(await api.raw('POST', '/api/1.0/whatever', { body: arrays(3000) }), 400, TOO_DEEP);
    });
  });

  describe('text that is not Unicode', () => {
    it('refuses a lone surrogate in a guide title with 400 and creates no guide', async () => {
      const before = await guideCount();
      for (const title of ['Broken \ud800 title', 'Broken \udfff', 'Ends high \udbff']) {
        const res = await api.request('POST', '/guides', { token: token.alice, body: { category: 'iPhone 12', type: 'repair', title } });
        expect(res.text).not.toContain('"guideid"');
        expectError(res, 400, NOT_UNICODE);
        expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
      }
      // The escape as a client writes it by hand, and in a key.
      expectError(await api.request('POST', '/guides', { token: token.alice, body: '{"category":"iPhone 12","type":"repair","title":"x\\uD800y"}' }), 400, NOT_UNICODE);
      expectError(await api.request('POST', '/guides', { token: token.alice, body: '{"category":"iPhone 12","type":"repair","ti\\udc00tle":"x"}' }), 400, NOT_UNICODE);
      expect(await guideCount()).toBe(before);
    });

    it('accepts a proper surrogate pair (an emoji) in the same field', async () => {
      const res = await api.request('POST', '/guides', { token: token.alice, body: { category: 'iPhone 12', type: 'repair', title: 'Fix it \ud83d\udd27 now' } });
      expect(res.status).toBe(201);
      expect(res.body.title).toBe('Fix it 🔧 now');
    });

    it('refuses raw bytes that are not UTF-8 in a guide title with 400 and creates no guide', async () => {
      const before = await guideCount();
      for (const bytes of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
        const body = withBytes('{"category":"iPhone 12","type":"repair","title":"Bad ', bytes, ' bytes"}');
        const res = await api.raw('POST', '/api/2.0/guides', { headers: { Authorization: `api ${token.alice}`, 'Content-Type': 'application/json' }, body });
        expect({ bytes, status: res.status }).toEqual({ bytes, status: 400 });
        expectError(res, 400, NOT_UNICODE);
      }
      expect(await guideCount()).toBe(before);
    });

    it('refuses a lone surrogate in the text of a step line with 400 and leaves the step as it was', async () => {
      const guide = await newGuide();
      const added = await api.request('POST', `/guides/${guide.guideid}/steps`, { token: token.alice, body: { lines: [{ text: 'Good text.', bullet: 'black', level: 0 }] } });
      expect(added.status).toBe(201);
      const before = await readGuide(guide.guideid);
      const step = before.steps[0];

      const patched = await api.request('PATCH', `/guides/${guide.guideid}/steps/${step.stepid}?revisionid=${step.revisionid}`, {
        token: token.alice,
        body: { lines: [{ text: 'Bad \ud800 text.', bullet: 'black', level: 0 }] },
      });
      expectError(patched, 400, NOT_UNICODE);
      const posted = await api.request('POST', `/guides/${guide.guideid}/steps`, { token: token.alice, body: { lines: [{ text: '\udc00', bullet: 'black', level: 0 }] } });
      expectError(posted, 400, NOT_UNICODE);
      const raw = await api.raw('PATCH', `/api/2.0/guides/${guide.guideid}/steps/${step.stepid}?revisionid=${step.revisionid}`, {
        headers: { Authorization: `api ${token.alice}` },
        body: withBytes('{"lines":[{"text":"Bad ', [0xed, 0xb0, 0x80], '","bullet":"black","level":0}]}'),
      });
      expectError(raw, 400, NOT_UNICODE);

      expect(await readGuide(guide.guideid)).toEqual(before);
    });

    it('refuses a lone surrogate in wiki contents (create and edit) with 400 and writes no page or revision', async () => {
      const before = await pageCount();
      const created = await api.request('POST', '/wikis', { token: token.admin, body: { namespace: 'WIKI', title: 'Hostile page', contents: "Use '''flux''' \ud800." } });
      expectError(created, 400, NOT_UNICODE);
      expect(await pageCount()).toBe(before);
      expect((await api.request('GET', '/wikis/WIKI/Hostile_page')).status).toBe(404);

      const page = await api.request('POST', '/wikis', { token: token.admin, body: { namespace: 'WIKI', title: 'Hostile page', contents: 'Good contents.' } });
      expect(page.status).toBe(201);
      const edited = await api.request('PATCH', `/wikis/WIKI/Hostile_page?revisionid=${page.body.revisionid}`, { token: token.admin, body: { contents: 'Bad \udfff contents.' } });
      expectError(edited, 400, NOT_UNICODE);
      const after = await api.request('GET', '/wikis/WIKI/Hostile_page', { token: token.admin });
      expect(after.body).toEqual(page.body);
    });
  });

  describe('bodies the README calls bad', () => {
    it(`answers a BOM before valid JSON with 400 "${INVALID_JSON}" and changes nothing`, async () => {
      const bom = [0xef, 0xbb, 0xbf];
      const alice = JSON.stringify({ email: DEMO_ACCOUNTS.alice.email, password: DEMO_ACCOUNTS.alice.password });
      const login = await api.raw('POST', '/api/2.0/user/token', { headers: { 'X-App-Id': DEMO_APP_ID, 'Content-Type': 'application/json' }, body: withBytes('', bom, alice) });
      expectError(login, 400, INVALID_JSON);
      expect(Object.keys(login.body).sort()).toEqual(['error', 'message']);

      const before = (await api.request('GET', '/user', { token: token.alice })).body;
      const edit = await api.raw('PATCH', '/api/2.0/user', { headers: { Authorization: `api ${token.alice}` }, body: withBytes('', bom, '{"summary":"Written through a BOM"}') });
      expectError(edit, 400, INVALID_JSON);
      expect((await api.request('GET', '/user', { token: token.alice })).body).toEqual(before);

      // Control: the same bytes without the BOM are accepted.
      const plain = await api.raw('POST', '/api/2.0/user/token', { headers: { 'X-App-Id': DEMO_APP_ID, 'Content-Type': 'application/json' }, body: withBytes('', [], alice) });
      expect(plain.status).toBe(201);
    });

    it('answers a __proto__ key with 422 "Unknown field", never 2xx, and pollutes no prototype', async () => {
      const alice = { email: DEMO_ACCOUNTS.alice.email, password: DEMO_ACCOUNTS.alice.password };
      const login = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: `{"email":${JSON.stringify(alice.email)},"password":${JSON.stringify(alice.password)},"__proto__":{"polluted":"yes"}}` });
      expectError(login, 422);
      expect(login.body.errors).toEqual([{ field: '__proto__', message: "Unknown field '__proto__'" }]);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('answers __proto__ and constructor keys on an edit with 422 and changes nothing', async () => {
      const before = (await api.request('GET', '/user', { token: token.alice })).body;
      for (const [key, text] of [
        ['__proto__', '{"__proto__":{"about":"Hijacked"}}'],
        ['__proto__', '{"about":"Hijacked","__proto__":{"isAdmin":true}}'],
        ['constructor', '{"constructor":{"prototype":{"polluted":"yes"}}}'],
        ['constructor', '{"summary":"Hijacked","constructor":"x"}'],
      ] as const) {
        const res = await api.request('PATCH', '/user', { token: token.alice, body: text });
        expect({ text, status: res.status }).toEqual({ text, status: 422 });
        expectError(res, 422);
        expect(res.body.errors).toEqual(expect.arrayContaining([{ field: key, message: `Unknown field '${key}'` }]));
      }
      expect((await api.request('GET', '/user', { token: token.alice })).body).toEqual(before);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    });

    it('answers a __proto__ key inside a nested object with 422 and writes nothing', async () => {
      const guide = await newGuide();
      const before = await readGuide(guide.guideid);
      const res = await api.request('POST', `/guides/${guide.guideid}/steps`, {
        token: token.alice,
        body: '{"lines":[{"text":"A step.","bullet":"black","level":0,"__proto__":{"level":9}}]}',
      });
      expectError(res, 422);
      expect(res.body.errors).toEqual([{ field: expect.stringMatching(/__proto__$/), message: expect.stringMatching(/^Unknown field '.*__proto__'$/) }]);
      expect(await readGuide(guide.guideid)).toEqual(before);
    });

    it('answers a null body with 422 naming the body (it is not a JSON object), also where every field is optional', async () => {
      const before = (await api.request('GET', '/user', { token: token.alice })).body;
      for (const [method, path, options] of [
        ['PATCH', '/user', { token: token.alice }],
        ['POST', '/user/token', { appId: DEMO_APP_ID }],
      ] as const) {
        const res = await api.request(method, path, { ...options, body: 'null' });
        expect({ path, status: res.status }).toEqual({ path, status: 422 });
        expectError(res, 422, 'The request body must be a JSON object');
        expect(res.body.errors).toEqual([{ field: '(body)', message: 'The request body must be a JSON object' }]);
      }
      expect((await api.request('GET', '/user', { token: token.alice })).body).toEqual(before);
    });
  });

  describe('URLs', () => {
    it('answers a NUL character (%00) in a query or path parameter with 400, never 500 (found by the fuzz test)', async () => {
      for (const path of ['/guides?filter=%00', '/guides?filter=repair%00', '/wikis/CATEGORY/iPhone%0012', '/search/bat%00tery', '/users/%00/guides']) {
        const res = await api.request('GET', path, { token: token.alice });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { error: true, message: 'The request URL contains a NUL character (%00)' } });
      }
      expect((await api.request('GET', '/guides?filter=repair')).status).toBe(200);
    });
  });

  describe('requests Node refuses before the API sees them', () => {
    it('answers a request header over 16 kB with 400 and the JSON error body, then closes', async () => {
      const res = await rawRequest(api.origin, `GET /api/2.0/guides HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
      expectRawError(res, 400, 'Request headers are too large');
      expect(res.headers['connection']).toBe('close');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    });

    it('answers a request line Node cannot parse with 400 and the JSON error body', async () => {
      for (const request of ['NONSENSE\r\n\r\n', 'GET /api/2.0/guides HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'FROB /api/2.0/guides HTTP/1.1\r\nHost: x\r\n\r\n']) {
        const res = await rawRequest(api.origin, request);
        expect({ request, status: res.status }).toEqual({ request, status: 400 });
        expectRawError(res, 400);
        expect(res.headers['connection']).toBe('close');
      }
    });

    it('handles a request with an unknown expectation (Expect: bogus) as if it had none', async () => {
      const res = await rawRequest(api.origin, 'GET /api/2.0/user HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nConnection: close\r\n\r\n');
      expectRawError(res, 401, 'Authentication required');

      const body = JSON.stringify({ email: 'nobody-expect@example.com' });
      const post = await rawRequest(
        api.origin,
        `POST /api/2.0/users/reset_password HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(post.status).toBe(200);
      expect(post.headers['content-type']).toBe('application/json');
    });

    it('answers CONNECT with 405, an Allow header and the JSON error body, then closes', async () => {
      const res = await rawRequest(api.origin, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      expectRawError(res, 405);
      expect(res.headers['allow']).toBe('DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT');
      expect(res.headers['connection']).toBe('close');
    });

    it('still serves requests normally afterwards', async () => {
      const res = await api.request('GET', '/user', { token: token.alice });
      expect(res.status).toBe(200);
    });
  });
});
