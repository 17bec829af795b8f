import { gunzipSync, gzipSync } from 'node:zlib';
import { ENTRY_OVERHEAD_BYTES, GuideBodyCache, jsonOf, lastModifiedOf, matchesEtag, notModified } from './guide-body-cache.js';

describe('GuideBodyCache', () => {
  let now = 0;
  const cache = (maxBytes: number, maxAgeMs = 10_000) => new GuideBodyCache({ maxBytes, maxAgeMs }, () => now);
  /** Keeps a body serialized, showing these users. */
  const put = (c: GuideBodyCache, key: string, version: string, body: object, users: number[] = [], pinned = false, viewsWindow: number | null = null) => c.put(key, version, JSON.stringify(body), users, pinned, viewsWindow);
  /** What an entry of this body costs in the budget. */
  const cost = (body: object) => gzipSync(JSON.stringify(body), { level: 1 }).length + ENTRY_OVERHEAD_BYTES;

  beforeEach(() => {
    now = 1_000;
  });

  it('serves an entry only for the version it was built from, keeping the JSON gzipped', () => {
    const c = cache(2000);
    const { entry, json } = put(c, '1:inline', '5.0', { guideid: 1, revisionid: 5 });
    expect(json.toString()).toBe('{"guideid":1,"revisionid":5}');
    expect(c.get('1:inline', '5.0')).toBe(entry);
    expect(jsonOf(entry).toString()).toBe(json.toString());
    expect(c.get('1:inline', '6.0')).toBeNull();
    expect(c.get('1:own', '5.0')).toBeNull();
  });

  it('inflates a kept body once for the clients that do not take gzip, never answering a replaced entry\'s bytes', () => {
    const c = cache(100_000);
    const { entry } = put(c, '1:inline', '5.0', { guideid: 1, revisionid: 5, views: 3 });
    const json = c.json(entry);
    expect(JSON.parse(json.toString())).toEqual({ guideid: 1, revisionid: 5, views: 3 });
    expect(c.json(entry)).toBe(json);
    const next = c.refreshViews('1:inline', entry, 4, 1);
    expect(JSON.parse(c.json(next).toString())).toEqual({ guideid: 1, revisionid: 5, views: 4 });
    const { entry: newer } = put(c, '1:inline', '6.0', { guideid: 1, revisionid: 6, views: 4 });
    expect(JSON.parse(c.json(newer).toString()).revisionid).toBe(6);
    // A body not kept (over the budget) is inflated each time, holding nothing.
    const small = cache(10);
    const { entry: turnedAway } = put(small, '2:inline', '1.0', { guideid: 2, text: 'x'.repeat(200) });
    expect(small.json(turnedAway)).not.toBe(small.json(turnedAway));
  });

  it('sets the views of a kept body in place: new bytes and ETags, the budget counted, the rest kept', () => {
    const c = cache(2000);
    const { entry } = put(c, '1:inline', '5.0', { guideid: 1, revisionid: 5, views: 3 }, [7], true, 40);
    expect([entry.views, entry.viewsWindow]).toEqual([3, 40]);
    now = 2_000;
    const next = c.refreshViews('1:inline', entry, 12, 41);
    expect(JSON.parse(jsonOf(next).toString())).toEqual({ guideid: 1, revisionid: 5, views: 12 });
    expect([next.views, next.viewsWindow, next.storedAt, next.pinned, next.users]).toEqual([12, 41, 1_000, true, [7]]);
    expect(next.etag).not.toBe(entry.etag);
    expect(next.etag.startsWith('"r5-')).toBe(true);
    expect(c.get('1:inline', '5.0')).toBe(next);
    expect(c.size.bytes).toBe(next.gzip.length + ENTRY_OVERHEAD_BYTES);
    // A body without views is kept without them.
    expect(put(c, '2:inline', '5.0', { guideid: 2 }).entry.views).toBeNull();
  });

  it('gives the same strong ETags to the same bytes, others to other bytes, and one per representation', () => {
    const c = cache(3000);
    const a = put(c, '1', 'v', { a: 1 }).entry;
    const b = put(c, '2', 'v', { a: 1 }).entry;
    const other = put(c, '3', 'v', { a: 2 }).entry;
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(a.etagGzip).toBe(a.etag.replace(/"$/, '-gzip"'));
    expect(b.etag).toBe(a.etag);
    expect(other.etag).not.toBe(a.etag);
  });

  it('expires entries after their maximum age', () => {
    const c = cache(2000, 500);
    put(c, '1', 'v', { a: 1 });
    now += 500;
    expect(c.get('1', 'v')).not.toBeNull();
    now += 1;
    expect(c.get('1', 'v')).toBeNull();
  });

  it('keeps pinned entries past the maximum age until a user they show changes, or they are unpinned', () => {
    const c = cache(10_000);
    const body = (author: number, other: number) => ({ guideid: author, author: { userid: author }, prerequisites: [{ author: { userid: other, username: 'x' } }] });
    put(c, '1', 'v', body(7, 8), [7, 8], true);
    put(c, '2', 'v', body(9, 8), [9, 8], true);
    put(c, '3', 'v', body(9, 10), [9, 10], true);
    now += 60_000;
    expect(c.get('1', 'v')).not.toBeNull();
    c.forgetUser(8);
    expect(c.get('1', 'v')).toBeNull();
    expect(c.get('2', 'v')).toBeNull();
    expect(c.get('3', 'v')).not.toBeNull();
    const before = c.size.bytes;
    c.forgetUser(8); // nothing left that shows user 8
    expect(c.size.bytes).toBe(before);
    c.unpinAll();
    expect(c.get('3', 'v')).toBeNull(); // older than the maximum age: no longer trusted
    expect(c.size).toEqual({ entries: 1, bytes: before });
  });

  it('keeps within its byte budget, dropping the least recently used first', () => {
    const body = (x: string) => ({ x: x.repeat(40) });
    const c = cache(cost(body('a')) * 2 + 5);
    put(c, 'a', 'v', body('a'));
    put(c, 'b', 'v', body('b'));
    expect(c.get('a', 'v')).not.toBeNull(); // a is now the most recent
    put(c, 'c', 'v', body('c')); // the budget is spent: c is kept the second time it is missed
    expect(c.get('c', 'v')).toBeNull();
    put(c, 'c', 'v', body('c')); // over the budget: b goes
    expect(c.size.entries).toBe(2);
    expect(c.get('b', 'v')).toBeNull();
    expect(c.get('a', 'v')).not.toBeNull();
    expect(c.get('c', 'v')).not.toBeNull();
  });

  it('once its budget is spent, keeps only bodies missed before, and compresses the others only when asked', () => {
    const body = (x: string) => ({ x: x.repeat(400) });
    const c = cache(cost(body('a')) * 2 + 5);
    put(c, 'a', 'v', body('a'));
    put(c, 'b', 'v', body('b'));
    const once = put(c, 'c', 'v', body('c'));
    expect(once.json.toString()).toBe(JSON.stringify(body('c')));
    expect(c.get('c', 'v')).toBeNull();
    expect([c.get('a', 'v'), c.get('b', 'v')].every(Boolean)).toBe(true); // nothing was pushed out
    // Same ETags as a kept body, and its gzip when a client asks for it.
    const kept = put(c, 'c', 'v', body('c')).entry;
    expect(once.entry.etag).toBe(kept.etag);
    expect(gunzipSync(once.entry.gzip).toString()).toBe(JSON.stringify(body('c')));
    expect(c.get('c', 'v')).not.toBeNull();
    // A newer version of a kept body replaces it at once.
    put(c, 'c', 'w', body('d'));
    expect(c.get('c', 'w')).not.toBeNull();
  });

  it('holds no more memory than its budget counts (gzip bytes in buffers of their own size)', () => {
    const c = cache(1 << 20);
    // A body of ~7 KB of gzip, as a guide's (smaller ones share Node's 8 KiB pool, as any small Buffer).
    const { entry } = put(c, 'a', 'v', { x: Array.from({ length: 3000 }, (_, i) => (i * 7919) % 10007) });
    expect(entry.gzip.length).toBeGreaterThan(4096);
    expect(entry.gzip.buffer.byteLength).toBe(entry.gzip.length);
  });

  it('replaces an entry in place and never stores a body larger than the budget', () => {
    const c = cache(cost({ x: 1 }) + 2);
    put(c, 'a', 'v1', { x: 1 });
    put(c, 'a', 'v2', { x: 2 });
    expect(c.size).toEqual({ entries: 1, bytes: cost({ x: 2 }) });
    const big = put(c, 'big', 'v', { x: Array.from({ length: 200 }, (_, i) => i * 7919) }).entry;
    expect(big.etag).toBeTruthy();
    expect(c.get('big', 'v')).toBeNull();
    expect(c.size.bytes).toBeLessThanOrEqual(cost({ x: 1 }) + 2);
  });

  it('counts each entry\'s overhead besides its gzip: many small bodies hold no more than the budget', () => {
    const c = cache(10 * (cost({ i: 100 }) + 8));
    for (let i = 100; i < 200; i++) put(c, String(i), 'v', { i });
    expect(c.size.entries).toBe(10);
    expect(c.size.bytes).toBeLessThanOrEqual(10 * (cost({ i: 100 }) + 8));
  });

  it('stores nothing with a zero budget', () => {
    const c = cache(0);
    expect(c.enabled).toBe(false);
    put(c, 'a', 'v', { x: 1 });
    expect(c.get('a', 'v')).toBeNull();
  });
});

describe('revisions and dates', () => {
  it('names the guide\'s revision in the ETag of a body, for both representations', () => {
    const c = new GuideBodyCache({ maxBytes: 1 << 20, maxAgeMs: 60_000 });
    const { entry } = c.put('1:inline', '123.45', JSON.stringify({ guideid: 1, revisionid: 123 }), [], false);
    expect(entry.etag).toMatch(/^"r123-[A-Za-z0-9_-]{27}"$/);
    expect(entry.etagGzip).toBe(entry.etag.replace(/"$/, '-gzip"'));
  });

  it('dates a body by the later of its own and its prerequisites\' modification, not by a prerequisite summary\'s', () => {
    const body = {
      prerequisites: [{ guideid: 2, modified_date: 1_900_000_000, prereq_modified_date: 1_900_000_000 }],
      title: 'has "modified_date":1 in its text',
      modified_date: 1_700_000_000,
      prereq_modified_date: 1_700_000_500,
      public: true,
    };
    expect(lastModifiedOf(JSON.stringify(body))).toBe(new Date(1_700_000_500_000).toUTCString());
    expect(lastModifiedOf(JSON.stringify({ ...body, prereq_modified_date: 0 }))).toBe(new Date(1_700_000_000_000).toUTCString());
    expect(lastModifiedOf('{"guideid":1}')).toBeNull();
  });

  it('answers 304 to a matching If-None-Match, else (without one) to an If-Modified-Since no earlier than Last-Modified', () => {
    const lastModified = new Date(1_700_000_000_000).toUTCString();
    expect(notModified({ 'if-none-match': '"a"' }, '"a"', lastModified)).toBe(true);
    expect(notModified({ 'if-none-match': '"b"', 'if-modified-since': lastModified }, '"a"', lastModified)).toBe(false);
    expect(notModified({ 'if-modified-since': lastModified }, '"a"', lastModified)).toBe(true);
    expect(notModified({ 'if-modified-since': new Date(1_699_999_999_000).toUTCString() }, '"a"', lastModified)).toBe(false);
    expect(notModified({ 'if-modified-since': 'yesterday' }, '"a"', lastModified)).toBe(false);
    expect(notModified({ 'if-modified-since': lastModified }, '"a"', null)).toBe(false);
    expect(notModified({}, '"a"', lastModified)).toBe(false);
  });
});

describe('matchesEtag', () => {
  it('matches one of a list, a weak form, or *; nothing else', () => {
    expect(matchesEtag('"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesEtag('W/"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('*', '"abc"')).toBe(true);
    expect(matchesEtag('"abd"', '"abc"')).toBe(false);
    expect(matchesEtag(undefined, '"abc"')).toBe(false);
  });
});
