import fc from 'fast-check';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

// Hostile requests across every route of the OpenAPI document: path parameters, query parameters,
// bodies, tokens and app ids drawn from values that break naive code (wrong types, huge numbers,
// broken Unicode, deep nesting, invalid JSON, traversal). Not one may answer 5xx.
//
// The seed is fixed so a run is repeatable (FUZZ_SEED picks another one, FUZZ_RUNS another count);
// a failure prints the requests that answered 5xx.

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 10_000);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261126);
const CONCURRENCY = 8;

interface Operation {
  readonly method: string;
  /** The path template, e.g. `/api/2.0/guides/{guideid}`. */
  readonly path: string;
  readonly query: readonly string[];
  readonly bodyFields: readonly string[];
}

interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

const weird = ['', ' ', '0', '-1', '1', '2', '3', '007', '1.5', '1e3', '2147483647', '2147483648', '99999999999999999999', 'NaN', 'null', 'true', '[]', '{}', 'abc',
  '%00', '%ff', '%ed%a0%80', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', 'a%20b', '😀', '\u202e', 'Ω', 'x'.repeat(3000), '<script>alert(1)</script>', "'; DROP TABLE guides; --", 'iPhone_12', 'CATEGORY', 'iPhone%2012'];
const pathValue = fc.oneof(fc.constantFrom(...weird), fc.integer({ min: -5, max: 50 }).map(String), fc.string({ maxLength: 12 }).map(encodeURIComponent));
const queryValue = fc.oneof(fc.constantFrom(...weird), fc.integer().map(String), fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent));

/** A JSON value of any shape, with hostile leaves. */
const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1, 1.5, 2147483648, 1e308, -0, '', 'x'.repeat(70_000), '\ud800', '😀', '<b>x</b>', 'black', 'icon_note', 'Moderate', 'en', 'ONE_ONE'),
    fc.integer(),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('text', 'bullet', 'level', 'title', 'lines', 'id', '__proto__', 'constructor', 'name', 'value'), tie('value'), { maxKeys: 4 }),
  ),
})).value;

function bodyFor(op: Operation): fc.Arbitrary<string | undefined> {
  const fields = op.bodyFields.length ? op.bodyFields : ['title', 'text'];
  const shaped = fc.dictionary(fc.constantFrom(...fields, 'unknownField'), hostileValue, { maxKeys: 6 }).map((o) => JSON.stringify(o));
  const deep = fc.integer({ min: 50, max: 4000 }).map((n) => '['.repeat(n) + ']'.repeat(n));
  const broken = fc.constantFrom('{', '{"a":', 'not json', '\ufeff{}', 'null', '[]', '"string"', '{"a":"\\ud800"}', '{"__proto__":{"x":1}}', '\u0000');
  return fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: deep }, { weight: 2, arbitrary: broken }, { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null') });
}

function requestFor(op: Operation, tokens: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  return fc
    .record({
      values: fc.tuple(...params.map(() => pathValue), fc.constant('')),
      query: fc.dictionary(fc.constantFrom(...op.query, 'limit', 'offset', 'pretty', 'revisionid', 'type', 'unknown'), queryValue, { maxKeys: 4 }),
      body: op.method === 'GET' || op.method === 'HEAD' ? fc.constant(undefined) : bodyFor(op),
      token: fc.constantFrom(undefined, 'garbage', 'A'.repeat(43), ...tokens),
      appId: fc.constantFrom(undefined, DEMO_APP_ID, 'nope', ''),
      contentType: fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'multipart/form-data; boundary=x'),
    })
    .map(({ values, query, body, token, appId, contentType }) => {
      let i = 0;
      const path = op.path.replace(/\{[^}]+\}/g, () => values[i++] as string);
      const search = Object.entries(query).map(([k, v]) => `${k}=${v}`).join('&');
      const headers: Record<string, string> = {};
      if (token) headers['Authorization'] = `api ${token}`;
      if (appId !== undefined) headers['X-App-Id'] = appId;
      if (contentType) headers['Content-Type'] = contentType;
      return { method: op.method, url: search ? `${path}?${search}` : path, headers, body };
    });
}

describe('fuzzed requests across every route', () => {
  let api: TestApi;
  let operations: Operation[];
  const tokens: string[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    tokens.push(await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password), await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password));
    const doc = (await api.raw('GET', '/api/2.0/docs-json')).body as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }> } }>>;
      components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const resolved = schema?.$ref ? doc.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;
        return {
          method: method.toUpperCase(),
          path,
          query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
          bodyFields: Object.keys(resolved?.properties ?? {}),
        };
      }),
    );
  });
  afterAll(() => api.close());

  it('covers every operation of the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.some((op) => op.method === 'PATCH' && op.path.includes('{'))).toBe(true);
  });

  it(`answers ${RUNS} hostile requests without a single 5xx`, async () => {
    const all = fc.oneof(...operations.map((op) => requestFor(op, tokens)));
    const requests = fc.sample(all, { numRuns: RUNS, seed: SEED });
    // The other methods on every path too (405s), and a few outside the prefix (404s).
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const req = requests[next++]!;
        let status: number;
        try {
          const res = await fetch(api.origin + req.url, { method: req.method, headers: req.headers, body: req.body });
          await res.arrayBuffer();
          status = res.status;
        } catch (error) {
          status = 599; // no answer at all (the connection dropped) counts as a failure too
          failures.push(`${req.method} ${req.url.slice(0, 200)} -> no answer: ${(error as Error).message}`);
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 500 && status !== 599) failures.push(`${req.method} ${req.url.slice(0, 200)} ${JSON.stringify(req.headers)} body=${(req.body ?? '').slice(0, 300)} -> ${status}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    if (process.env["FUZZ_VERBOSE"]) console.log(JSON.stringify([...statuses].sort()));
    expect(failures.slice(0, 15)).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(RUNS);
    // The run reached the routes' logic, not only their guards: successes and client errors of several kinds.
    expect([...statuses.keys()].filter((s) => s < 300).length).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((s) => s >= 400 && s < 500).length).toBeGreaterThanOrEqual(4);
  }, 600_000);
});
