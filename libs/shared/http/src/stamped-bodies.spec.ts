import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { hashOf } from './conditional.js';
import { jsonOf, KeptAnswer, sendJson, sendKeptJson, SerializedJson } from './respond.js';
import type { Response } from 'express';
import { answerOf, GZIPPED_ENTRY_OVERHEAD_BYTES, StampedBodies } from './stamped-bodies.js';

/** A page-like body of 30 guides (about 5 KB of JSON that compresses as pages do), different for each `n`. */
const page = (n: number) => ({ results: Array.from({ length: 30 }, (_, i) => ({ guideid: n * 100 + i, title: `Guide ${n}.${i} Battery Replacement`, summary: 'Replace the battery of this device, step by step.', url: `http://localhost/Guide/${n}/${i}` })) });

/** A GET (or HEAD) and its response, recording what is sent. */
function exchange(method: string, headers: Record<string, string> = {}) {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.headers = headers;
  const res = new ServerResponse(req);
  const sent: { body: Buffer | string | undefined } = { body: undefined };
  res.end = ((chunk?: Buffer | string) => {
    sent.body = chunk;
    return res;
  }) as typeof res.end;
  return { req, res, sent };
}

describe('StampedBodies', () => {
  it('serves a body only for the stamp it was built after', () => {
    const bodies = new StampedBodies(1024 * 1024);
    const kept = bodies.put('/guides', '7', [{ a: 1 }], null);
    expect(kept.json).toBe('[{"a":1}]');
    expect(kept.hash).toBe(hashOf('[{"a":1}]'));
    expect(bodies.get('/guides', '7')).toBe(kept);
    expect(bodies.get('/guides', '8')).toBeNull();
    expect(bodies.get('/other', '7')).toBeNull();
    expect([bodies.hits, bodies.misses]).toEqual([1, 2]);
  });

  it('serves a body at most maxAgeMs after it was built', () => {
    let now = 0;
    const bodies = new StampedBodies(1024 * 1024, 1000, () => now);
    bodies.put('/search/x', '1', { results: [] }, null);
    now = 999;
    expect(bodies.get('/search/x', '1')).not.toBeNull();
    now = 1000;
    expect(bodies.get('/search/x', '1')).toBeNull();
  });

  it('serves a body read after its stamp as long as the stamp reads the same, and one from older data at most maxAgeMs after that data', () => {
    let now = 10_000;
    const bodies = new StampedBodies(1024 * 1024, 1000, () => now);
    bodies.put('/search/exact', '1', { results: [] }, null, null);
    bodies.put('/search/kept', '1', { results: [] }, null, 9_500);
    now = 10_499;
    expect(bodies.get('/search/kept', '1')).not.toBeNull();
    now = 10_500;
    expect(bodies.get('/search/kept', '1')).toBeNull();
    now = 1_000_000;
    expect(bodies.get('/search/exact', '1')).not.toBeNull();
    expect(bodies.get('/search/exact', '2')).toBeNull();
  });

  it('keeps the most recently used within its byte budget, and nothing with a budget of 0', () => {
    const bodies = new StampedBodies(2 * 2 * 60);
    bodies.put('a', '1', 'x'.repeat(40), null);
    bodies.put('b', '1', 'y'.repeat(40), null);
    expect(bodies.get('a', '1')).not.toBeNull();
    bodies.put('c', '1', 'z'.repeat(40), null);
    expect(bodies.get('b', '1')).toBeNull();
    expect(bodies.get('a', '1')).not.toBeNull();
    const none = new StampedBodies(0);
    expect(none.enabled).toBe(false);
    none.put('a', '1', [], null);
    expect(none.get('a', '1')).toBeNull();
  });

  it('keeps a body already serialized as its bytes, with their hash when known', () => {
    const bodies = new StampedBodies(1024);
    const bytes = Buffer.from('{"c":"é"}');
    expect(bodies.put('a', '1', new SerializedJson(bytes), null)).toMatchObject({ json: bytes, hash: hashOf('{"c":"é"}') });
    expect(bodies.put('b', '1', new SerializedJson('[1]', null, 'known'), null)).toMatchObject({ json: '[1]', hash: 'known' });
  });

  it('answers the kept bytes with their hash, so the ETag is not computed again', () => {
    const answer = answerOf(new StampedBodies(1024).put('k', '1', { b: 2 }, null));
    expect(answer).toBeInstanceOf(KeptAnswer);
    expect(answer.kept.json).toBe('{"b":2}');
    expect(answer.hash).toBe(hashOf('{"b":2}'));
  });
});

describe('StampedBodies kept gzipped', () => {
  it('keeps each body gzipped, answers its JSON as it is, and serves the same bytes and hash from the gzip', () => {
    const bodies = new StampedBodies(1024 * 1024, Infinity, Date.now, { gzip: true });
    const json = JSON.stringify(page(1));
    const answered = bodies.put('/wikis/CATEGORY/A', '3', page(1), null);
    expect(answered).toMatchObject({ json, gzipped: false, hash: hashOf(json) });
    const kept = bodies.get('/wikis/CATEGORY/A', '3')!;
    expect(kept.gzipped).toBe(true);
    expect(Buffer.isBuffer(kept.json)).toBe(true);
    expect(kept.json.length).toBeLessThan(json.length / 4);
    expect(gunzipSync(kept.json).toString()).toBe(json);
    expect(kept.hash).toBe(hashOf(json));
    expect(jsonOf(answerOf(kept).kept).toString()).toBe(json);
    expect(answerOf(kept).hash).toBe(hashOf(json));
    // The answer of the build carries the gzip it kept, for clients that take gzip.
    expect(answered.gzip).toBe(kept.json);
    expect(bodies.get('/wikis/CATEGORY/A', '4')).toBeNull();
  });

  it('counts the gzip and its overhead in the budget, so the same bytes keep several times the bodies', () => {
    const budget = 64 * 1024;
    const plain = new StampedBodies(budget);
    const gzipped = new StampedBodies(budget, Infinity, Date.now, { gzip: true });
    for (let n = 0; n < 100; n++) {
      plain.put(`/p/${n}`, '1', page(n), null);
      gzipped.put(`/p/${n}`, '1', page(n), null);
    }
    const keptOf = (bodies: StampedBodies) => Array.from({ length: 100 }, (_, n) => bodies.peek(`/p/${n}`, '1')).filter((e) => e !== null);
    const kept = keptOf(gzipped);
    expect(keptOf(plain).length).toBeLessThanOrEqual(Math.floor(budget / (2 * JSON.stringify(page(0)).length)));
    expect(kept.length).toBeGreaterThan(4 * keptOf(plain).length);
    // The most recent are kept, within the budget as counted.
    expect(kept.at(-1)).toBe(gzipped.peek('/p/99', '1'));
    const counted = kept.reduce((sum, e, i) => sum + e.json.length + 2 * `/p/${100 - kept.length + i}`.length + GZIPPED_ENTRY_OVERHEAD_BYTES, 0);
    expect(counted).toBeLessThanOrEqual(budget);
  });

  it('keeps nothing, and compresses nothing, with a budget of 0', () => {
    const none = new StampedBodies(0, Infinity, Date.now, { gzip: true });
    expect(none.put('a', '1', { a: 1 }, null)).toMatchObject({ json: '{"a":1}', gzipped: false });
    expect(none.get('a', '1')).toBeNull();
  });
});

describe('sendKeptJson', () => {
  const json = JSON.stringify(page(2));
  const gzipped = new StampedBodies(1024 * 1024, Infinity, Date.now, { gzip: true });
  gzipped.put('k', '1', page(2), null);
  const kept = gzipped.get('k', '1')!;

  it('sends the inflated JSON with its length and the ETag of its hash', () => {
    const { req, res, sent } = exchange('GET');
    sendKeptJson(req, res, kept, kept.hash);
    expect(res.statusCode).toBe(200);
    expect(sent.body?.toString()).toBe(json);
    expect(res.getHeader('Content-Length')).toBe(Buffer.byteLength(json));
    expect(res.getHeader('Content-Type')).toBe('application/json');
    expect(res.getHeader('ETag')).toBe(`"${hashOf(json)}"`);
    expect(res.getHeader('Content-Encoding')).toBeUndefined();
  });

  it('answers a matching If-None-Match with a 304 from the hash alone, without inflating the body', () => {
    // Bytes that are not gzip: inflating them would throw.
    const broken = { json: Buffer.from('not gzip'), gzipped: true };
    const { req, res, sent } = exchange('GET', { 'if-none-match': `"${kept.hash}"` });
    sendKeptJson(req, res, broken, kept.hash);
    expect(res.statusCode).toBe(304);
    expect(sent.body).toBeUndefined();
    expect(() => jsonOf(broken)).toThrow();
  });

  it('sends the gzip as kept to a client that takes gzip, with its own ETag, varying on Accept-Encoding', () => {
    const { req, res, sent } = exchange('GET', { 'accept-encoding': 'gzip, deflate, br' });
    sendKeptJson(req, res, kept, kept.hash);
    expect(res.statusCode).toBe(200);
    expect(sent.body).toBe(kept.json);
    expect(gunzipSync(sent.body as Buffer).toString()).toBe(json);
    expect(res.getHeader('Content-Encoding')).toBe('gzip');
    expect(res.getHeader('Content-Length')).toBe((kept.json as Buffer).length);
    expect(res.getHeader('ETag')).toBe(`"${hashOf(json)}-gzip"`);
    expect(res.getHeader('Vary')).toMatch(/Accept-Encoding/);
    // A client that refuses gzip (q=0) gets the JSON, which varies too.
    const refused = exchange('GET', { 'accept-encoding': 'gzip;q=0, identity' });
    sendKeptJson(refused.req, refused.res, kept, kept.hash);
    expect(refused.sent.body?.toString()).toBe(json);
    expect(refused.res.getHeader('Content-Encoding')).toBeUndefined();
    expect(refused.res.getHeader('Vary')).toMatch(/Accept-Encoding/);
  });

  it("answers 304 to the gzip's own ETag only: the JSON's names another representation", () => {
    const current = exchange('GET', { 'accept-encoding': 'gzip', 'if-none-match': `"${kept.hash}-gzip"` });
    sendKeptJson(current.req, current.res, kept, kept.hash);
    expect(current.res.statusCode).toBe(304);
    expect(current.sent.body).toBeUndefined();
    expect(current.res.getHeader('Content-Encoding')).toBeUndefined();
    const other = exchange('GET', { 'accept-encoding': 'gzip', 'if-none-match': `"${kept.hash}"` });
    sendKeptJson(other.req, other.res, kept, kept.hash);
    expect(other.res.statusCode).toBe(200);
    expect(other.res.getHeader('Content-Encoding')).toBe('gzip');
  });

  it('sends the answer of a build as it is to one client and its kept gzip to another, compressing nothing again', () => {
    const bodies = new StampedBodies(1024 * 1024, Infinity, Date.now, { gzip: true });
    const built = bodies.put('b', '1', page(3), null);
    const plain = exchange('GET');
    sendKeptJson(plain.req, plain.res, built, built.hash);
    expect(plain.sent.body).toBe(built.json);
    expect(plain.res.getHeader('Vary')).toMatch(/Accept-Encoding/);
    const gzip = exchange('GET', { 'accept-encoding': 'gzip' });
    sendKeptJson(gzip.req, gzip.res, built, built.hash);
    expect(gzip.sent.body).toBe(bodies.get('b', '1')!.json);
  });

  it("is how a route's answerOf goes out through sendJson", () => {
    const { req, res, sent } = exchange('GET', { 'accept-encoding': 'gzip' });
    Object.assign(res, { req });
    sendJson(res as unknown as Response, 200, answerOf(kept));
    expect(sent.body).toBe(kept.json);
    expect(res.getHeader('ETag')).toBe(`"${hashOf(json)}-gzip"`);
  });

  it('sends no body to a HEAD, and a plain kept body as it is', () => {
    const head = exchange('HEAD');
    sendKeptJson(head.req, head.res, kept, kept.hash);
    expect(head.res.getHeader('Content-Length')).toBe(Buffer.byteLength(json));
    expect(head.sent.body).toBeUndefined();
    const plain = exchange('GET');
    sendKeptJson(plain.req, plain.res, { json: '[1]', gzipped: false }, hashOf('[1]'));
    expect(plain.sent.body).toBe('[1]');
  });
});

describe('StampedBodies.build', () => {
  it('runs one build for concurrent misses of the same key and stamp, and keeps its body', async () => {
    const bodies = new StampedBodies(1024 * 1024);
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const make = async () => {
      runs++;
      await gate;
      return { body: { n: runs }, extra: null };
    };
    const waiting = Array.from({ length: 8 }, () => bodies.build('/search/x', '1', make));
    release();
    const built = await Promise.all(waiting);
    expect(runs).toBe(1);
    expect(bodies.shared).toBe(7);
    expect(new Set(built).size).toBe(1);
    expect(built[0]!.json).toBe('{"n":1}');
    expect(bodies.get('/search/x', '1')).toBe(built[0]);
  });

  it('builds again for another stamp or key, and after a build is done', async () => {
    const bodies = new StampedBodies(1024 * 1024);
    let runs = 0;
    const make = async () => ({ body: ++runs, extra: null });
    await Promise.all([bodies.build('/a', '1', make), bodies.build('/a', '2', make), bodies.build('/b', '1', make)]);
    expect(runs).toBe(3);
    await bodies.build('/a', '1', make);
    expect(runs).toBe(4);
  });

  it('shares a failure with the requests waiting on it, and tries again on the next miss', async () => {
    const bodies = new StampedBodies(1024 * 1024);
    let runs = 0;
    const failing = async (): Promise<{ body: unknown; extra: null }> => {
      runs++;
      await Promise.resolve();
      throw new Error('no');
    };
    const results = await Promise.allSettled([bodies.build('/a', '1', failing), bodies.build('/a', '1', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(runs).toBe(1);
    await expect(bodies.build('/a', '1', failing)).rejects.toThrow('no');
    expect(runs).toBe(2);
    expect(bodies.get('/a', '1')).toBeNull();
  });
});
