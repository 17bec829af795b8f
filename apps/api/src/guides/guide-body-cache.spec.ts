import { GuideBodyCache, matchesEtag } from './guide-body-cache.js';

describe('GuideBodyCache', () => {
  let now = 0;
  const cache = (maxBytes: number, maxAgeMs = 10_000) => new GuideBodyCache({ maxBytes, maxAgeMs }, () => now);

  beforeEach(() => {
    now = 1_000;
  });

  it('serves an entry only for the version it was built from', () => {
    const c = cache(1000);
    const stored = c.put('1:inline', '5.0', { guideid: 1, revisionid: 5 });
    expect(c.get('1:inline', '5.0')).toBe(stored);
    expect(c.get('1:inline', '6.0')).toBeNull();
    expect(c.get('1:own', '5.0')).toBeNull();
    expect(stored.json.toString()).toBe('{"guideid":1,"revisionid":5}');
  });

  it('gives the same strong ETag to the same bytes and another to other bytes', () => {
    const c = cache(1000);
    const a = c.put('1', 'v', { a: 1 });
    const b = c.put('2', 'v', { a: 1 });
    const other = c.put('3', 'v', { a: 2 });
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(b.etag).toBe(a.etag);
    expect(other.etag).not.toBe(a.etag);
  });

  it('expires entries after their maximum age', () => {
    const c = cache(1000, 500);
    c.put('1', 'v', { a: 1 });
    now += 500;
    expect(c.get('1', 'v')).not.toBeNull();
    now += 1;
    expect(c.get('1', 'v')).toBeNull();
  });

  it('keeps within its byte budget, dropping the least recently used first', () => {
    const c = cache(30);
    c.put('a', 'v', { x: 'aaaa' }); // 12 bytes
    c.put('b', 'v', { x: 'bbbb' });
    expect(c.get('a', 'v')).not.toBeNull(); // a is now the most recent
    c.put('c', 'v', { x: 'cccc' }); // 36 bytes: b goes
    expect(c.size).toEqual({ entries: 2, bytes: 24 });
    expect(c.get('b', 'v')).toBeNull();
    expect(c.get('a', 'v')).not.toBeNull();
    expect(c.get('c', 'v')).not.toBeNull();
  });

  it('replaces an entry in place and never stores a body larger than the budget', () => {
    const c = cache(20);
    c.put('a', 'v1', { x: 1 });
    c.put('a', 'v2', { x: 2 });
    expect(c.size).toEqual({ entries: 1, bytes: 7 });
    const big = c.put('big', 'v', { x: 'y'.repeat(50) });
    expect(big.etag).toBeTruthy();
    expect(c.get('big', 'v')).toBeNull();
    expect(c.size.bytes).toBeLessThanOrEqual(20);
  });

  it('stores nothing with a zero budget', () => {
    const c = cache(0);
    expect(c.enabled).toBe(false);
    c.put('a', 'v', { x: 1 });
    expect(c.get('a', 'v')).toBeNull();
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
