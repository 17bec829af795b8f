import { ShownWikiViews, WikiPageBodies } from './wiki-views.js';

describe('ShownWikiViews', () => {
  let now: number;
  const views = (refreshMs: number) => new ShownWikiViews(refreshMs, () => now);

  beforeEach(() => {
    now = 990_000; // the start of a window of 30 s
  });

  it('shows the total read at the start of a window until the window ends, per page', () => {
    const shown = views(30_000);
    expect(shown.settle(1, 10)).toBe(10);
    now += 29_000;
    expect(shown.settle(1, 15)).toBe(10);
    expect(shown.settle(2, 20)).toBe(20);
    now += 1_000; // 1,020,000 ms: the next window
    expect(shown.settle(1, 15)).toBe(15);
    expect(shown.settle(2, 21)).toBe(21);
  });

  it('aligns windows on the clock, so instances change what they show at the same moments', () => {
    now = 59_999;
    const shown = views(30_000);
    expect(shown.settle(1, 10)).toBe(10);
    now = 60_000;
    expect(shown.settle(1, 11)).toBe(11);
  });

  it('shows the stored total of every request with a refresh of 0', () => {
    const shown = views(0);
    expect(shown.window()).toBeNull();
    expect(shown.settle(1, 10)).toBe(10);
    expect(shown.settle(1, 12)).toBe(12);
  });
});

describe('WikiPageBodies', () => {
  it('keeps pages gzipped and answers the JSON as built', () => {
    const bodies = new WikiPageBodies(1024 * 1024);
    const extra = { pageId: 1, revisionid: 2, modified: null, window: 0 };
    expect(bodies.put('CATEGORY\u0000Kettle', '5', { title: 'Kettle' }, extra)).toMatchObject({ json: '{"title":"Kettle"}', gzipped: false });
    expect(bodies.get('CATEGORY\u0000Kettle', '5')).toMatchObject({ gzipped: true, extra });
  });
});
