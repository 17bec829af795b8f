import { MAX_SEARCH_CHARS, prefixTsQuery, RankingCache, webSearchText } from './full-text.js';

describe('full-text query text', () => {
  it('builds prefix queries from letters and digits only', () => {
    expect(prefixTsQuery('batt')).toBe('batt:*');
    expect(prefixTsQuery('  iPhone 12 batt  ')).toBe('iPhone:* & 12:* & batt:*');
    expect(prefixTsQuery("a:* & b | !c (d) <-> 'e' \\f")).toBe('a:* & b:* & c:* & d:* & e:* & f:*');
    expect(prefixTsQuery('Joy-Con')).toBe('Joy:* & Con:*');
    expect(prefixTsQuery('écran ремонт 修理')).toBe('écran:* & ремонт:* & 修理:*');
    expect(prefixTsQuery('e\u0301cran')).toBe('écran:*');
  });

  it('keeps ten words of at most 64 characters', () => {
    expect(prefixTsQuery(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '))!.split(' & ')).toHaveLength(10);
    expect(prefixTsQuery('x'.repeat(10_000))).toBe(`${'x'.repeat(64)}:*`);
    expect(prefixTsQuery('🔧'.repeat(100) + ' ok')).toBe('ok:*');
  });

  it('has nothing to ask for no words, or a NUL character', () => {
    for (const raw of ['', '   ', '&|!', "'", '(((', ':*', '\u0000', 'battery\u0000']) expect(prefixTsQuery(raw)).toBeNull();
  });

  it('passes free text on for websearch_to_tsquery, trimmed and capped', () => {
    expect(webSearchText('  "battery replacement" -iphone ')).toBe('"battery replacement" -iphone');
    expect(webSearchText('(((')).toBe('(((');
    expect(Array.from(webSearchText('é'.repeat(5000))!)).toHaveLength(MAX_SEARCH_CHARS);
    expect(webSearchText('🔧'.repeat(MAX_SEARCH_CHARS + 1))).toBe('🔧'.repeat(MAX_SEARCH_CHARS));
    for (const raw of ['', ' \t\n', '\u0000', 'battery\u0000']) expect(webSearchText(raw)).toBeNull();
  });
});

describe('RankingCache', () => {
  it('keeps entries for their time to live, at most maxEntries (the oldest go first)', () => {
    let now = 0;
    const cache = new RankingCache<number>(1000, 2, () => now);
    cache.set('a', 1);
    cache.set('b', 2);
    expect([cache.get('a'), cache.get('b')]).toEqual([1, 2]);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    now = 999;
    expect(cache.get('b')).toBe(2);
    now = 1000;
    expect(cache.get('b')).toBeUndefined();
    const off = new RankingCache<number>(0, 2);
    off.set('x', 1);
    expect(off.get('x')).toBeUndefined();
  });

  it('reads an entry with when it was set, until it expires', () => {
    let now = 500;
    const cache = new RankingCache<string>(1000, 2, () => now);
    cache.set('q', 'ranking');
    now = 1200;
    expect(cache.read('q')).toEqual({ value: 'ranking', at: 500 });
    now = 1500;
    expect(cache.read('q')).toBeUndefined();
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
  });
});
