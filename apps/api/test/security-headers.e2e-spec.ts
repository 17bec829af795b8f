import 'reflect-metadata';
import http from 'node:http';
import net from 'node:net';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

// Security headers on every answer (Express's, the guide hot path's ahead of Express, the raw
// answers to requests Node's parser refuses), HSTS only over TLS, and what forwarded headers may
// change (the client address and protocol from trusted proxies) and may not (`url` fields).

const API_CSP = "default-src 'none';frame-ancestors 'none'";

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

/** A request through node:http, which can send any Host and a body with a GET. */
function send(origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const req = http.request(`${origin}${path}`, { method, headers: { 'Accept-Encoding': 'identity', ...length, ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The static set every API answer carries (the HSTS expectation is separate). */
function expectApiHeaders(answer: Answer, label: string): void {
  const h = answer.headers;
  expect({ label, headers: {
    'content-security-policy': h['content-security-policy'],
    'x-content-type-options': h['x-content-type-options'],
    'referrer-policy': h['referrer-policy'],
    'x-frame-options': h['x-frame-options'],
    'cross-origin-opener-policy': h['cross-origin-opener-policy'],
    'cross-origin-resource-policy': h['cross-origin-resource-policy'],
    'x-powered-by': h['x-powered-by'],
  } }).toEqual({ label, headers: {
    'content-security-policy': API_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'cross-origin',
    'x-powered-by': undefined,
  } });
}

const securityHeadersOf = (answer: Answer) =>
  Object.fromEntries(
    [
      'content-security-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'referrer-policy',
      'strict-transport-security', 'x-content-type-options', 'x-dns-prefetch-control', 'x-download-options', 'x-frame-options',
      'x-permitted-cross-domain-policies', 'x-xss-protection',
    ].map((name) => [name, answer.headers[name]]),
  );

async function aPublicGuideId(api: TestApi): Promise<number> {
  const res = await api.request('GET', '/guides?limit=1');
  expect(res.status).toBe(200);
  return res.body[0].guideid as number;
}

describe('security headers and forwarded headers over HTTP', () => {
  describe('without a trusted proxy (defaults)', () => {
    let api: TestApi;
    let guideId: number;
    beforeAll(async () => {
      api = await startTestApi();
      guideId = await aPublicGuideId(api);
    });
    afterAll(() => api.close());

    it('every kind of answer carries the security headers, and none HSTS over plain HTTP', async () => {
      const token = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      const o = api.origin;
      const answers: [string, Answer, number][] = [
        ['JSON list', await send(o, 'GET', '/api/2.0/categories'), 200],
        ['guide (hot path)', await send(o, 'GET', `/api/2.0/guides/${guideId}`), 200],
        ['guide through Express', await send(o, 'GET', `/api/2.0/guides/${guideId}?pretty`), 200],
        ['guide as XML', await send(o, 'GET', `/api/2.0/guides/${guideId}`, { Accept: 'application/xml' }), 200],
        ['authenticated', await send(o, 'GET', '/api/2.0/user', { Authorization: `api ${token}` }), 200],
        ['created', await send(o, 'POST', '/api/2.0/user/token', { 'X-App-Id': DEMO_APP_ID, 'Content-Type': 'application/json' }, JSON.stringify({ email: DEMO_ACCOUNTS.bob.email, password: DEMO_ACCOUNTS.bob.password })), 201],
        ['deleted', await send(o, 'DELETE', '/api/2.0/user/token', { Authorization: `api ${token}` }), 204],
        ['invalid JSON', await send(o, 'POST', '/api/2.0/user/token', { 'X-App-Id': DEMO_APP_ID }, '{'), 400],
        ['no token', await send(o, 'GET', '/api/2.0/user'), 401],
        ['unknown route', await send(o, 'GET', '/api/2.0/nothing-here'), 404],
        ['outside the API', await send(o, 'GET', '/'), 404],
        ['wrong method', await send(o, 'DELETE', '/api/2.0/categories'), 405],
        ['oversized body', await send(o, 'POST', '/api/2.0/user/token', { 'X-App-Id': DEMO_APP_ID }, JSON.stringify({ email: 'x'.repeat(1024 * 1024) })), 413],
        ['preflight', await send(o, 'OPTIONS', '/api/2.0/guides', { Origin: 'https://client.example', 'Access-Control-Request-Method': 'PATCH' }), 204],
        ['OpenAPI document', await send(o, 'GET', '/api/2.0/docs-json'), 200],
      ];
      for (const [label, answer, status] of answers) {
        expect({ label, status: answer.status }).toEqual({ label, status });
        expectApiHeaders(answer, label);
        expect({ label, hsts: answer.headers['strict-transport-security'] }).toEqual({ label, hsts: undefined });
      }
    });

    it('the guide hot path (ahead of Express) sets exactly the headers Express sets', async () => {
      // Express reads (and refuses) a GET's body; the hot path never looks at it: a 200 here was
      // answered ahead of Express.
      const hot = await send(api.origin, 'GET', `/api/2.0/guides/${guideId}`, { 'Content-Type': 'application/json' }, '{');
      expect(hot.status).toBe(200);
      expect((await send(api.origin, 'GET', `/api/2.0/guides/${guideId}?unused=1`, { 'Content-Type': 'application/json' }, '{')).status).toBe(400);
      const viaExpress = await send(api.origin, 'GET', `/api/2.0/guides/${guideId}?unused=1`);
      expect(viaExpress.status).toBe(200);
      expect(securityHeadersOf(hot)).toEqual(securityHeadersOf(viaExpress));
      const notModified = await send(api.origin, 'GET', `/api/2.0/guides/${guideId}`, { 'If-None-Match': hot.headers.etag! });
      expect(notModified.status).toBe(304);
      expect(securityHeadersOf(notModified)).toEqual(securityHeadersOf(viaExpress));
    });

    it('a forged X-Forwarded-Proto from an untrusted peer brings no HSTS, on either path', async () => {
      for (const path of [`/api/2.0/guides/${guideId}`, '/api/2.0/categories']) {
        const res = await send(api.origin, 'GET', path, { 'X-Forwarded-Proto': 'https' });
        expect(res.status).toBe(200);
        expect(res.headers['strict-transport-security']).toBeUndefined();
      }
    });

    it('Swagger UI gets a CSP that allows what its page loads (same-origin scripts and style sheet, inline styles) and nothing else', async () => {
      const page = await send(api.origin, 'GET', '/api/2.0/docs');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const csp = String(page.headers['content-security-policy']);
      const directives = Object.fromEntries(csp.split(';').map((d: string) => { const [name, ...values] = d.trim().split(/\s+/); return [name, values]; }));
      expect(directives['default-src']).toEqual(["'none'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['script-src']).toEqual(["'self'"]);
      expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
      expect(directives['img-src']).toEqual(["'self'", 'data:']);
      expect(directives['connect-src']![0]).toBe("'self'");
      // Every script is a same-origin file (no inline script, which script-src 'self' would block).
      const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThanOrEqual(3);
      for (const [, attributes, body] of scripts) {
        expect(body!.trim()).toBe('');
        expect(attributes).toMatch(/src="\.\/docs\/[^"]+\.js"/);
      }
      const sheets = [...page.text.matchAll(/<link[^>]*rel="(?:stylesheet|icon)"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
      expect(sheets.length).toBeGreaterThanOrEqual(2);
      // Every file it loads resolves to this origin and is served, with the docs' headers.
      const base = new URL('/api/2.0/docs', api.origin);
      for (const src of [...scripts.map(([, attributes]) => /src="([^"]+)"/.exec(attributes!)![1]!), ...sheets]) {
        const url = new URL(src, base);
        expect(url.origin).toBe(api.origin);
        const file = await send(api.origin, 'GET', url.pathname);
        expect({ src, status: file.status }).toEqual({ src, status: 200 });
        expect(file.headers['x-content-type-options']).toBe('nosniff');
      }
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
    });

    it('raw answers to requests the HTTP parser refuses carry nosniff', async () => {
      const text = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(new URL(api.origin).port), '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
        socket.write('GET /api/2.0/guides HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      });
      expect(text).toMatch(/^HTTP\/1\.1 400 /);
      expect(text).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
    });
  });

  describe('behind a trusted proxy (TRUST_PROXY=loopback, PUBLIC_BASE_URL=https://repair.example)', () => {
    const BASE = 'https://repair.example';
    let api: TestApi;
    let guideId: number;
    beforeAll(async () => {
      api = await startTestApi({ TRUST_PROXY: 'loopback', PUBLIC_BASE_URL: BASE });
      guideId = await aPublicGuideId(api);
    });
    afterAll(() => api.close());

    it('HSTS when the proxy says the request came over https, on Express and on the hot path; not over http', async () => {
      for (const path of [`/api/2.0/guides/${guideId}`, `/api/2.0/guides/${guideId}?pretty`, '/api/2.0/categories', '/api/2.0/nothing-here', '/api/2.0/docs']) {
        const secure = await send(api.origin, 'GET', path, { 'X-Forwarded-Proto': 'https' });
        expect({ path, hsts: secure.headers['strict-transport-security'] }).toEqual({ path, hsts: 'max-age=31536000; includeSubDomains' });
        const plain = await send(api.origin, 'GET', path, { 'X-Forwarded-Proto': 'http' });
        expect({ path, hsts: plain.headers['strict-transport-security'] }).toEqual({ path, hsts: undefined });
      }
    });

    it('url fields come from PUBLIC_BASE_URL only, never from Host or X-Forwarded-Host/-Proto', async () => {
      const forged = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http', 'X-Forwarded-For': '198.51.100.9' };
      for (const path of [`/api/2.0/guides/${guideId}`, `/api/2.0/guides/${guideId}?pretty`, '/api/2.0/guides?limit=3', '/api/2.0/users?limit=3']) {
        const res = await send(api.origin, 'GET', path, forged);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        // The service's own pages (tools and parts may link elsewhere).
        const urls = [...res.text.matchAll(/"url": ?"([^"]*\/(?:Guide|User|Team)\/[^"]*)"/g)].map((m) => m[1]!);
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) expect(url.startsWith(`${BASE}/`)).toBe(true);
        expect(res.text).not.toContain('evil.example');
      }
      const doc = JSON.parse((await send(api.origin, 'GET', '/api/2.0/docs-json', forged)).text) as { servers: { url: string }[] };
      expect(doc.servers).toEqual([{ url: BASE }]);
    });

    it("Swagger UI may call the API at PUBLIC_BASE_URL's origin", async () => {
      const page = await send(api.origin, 'GET', '/api/2.0/docs');
      expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ${BASE};`);
    });
  });
});
