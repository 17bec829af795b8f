import { ViewWindows } from '@rc/shared-http';
import type { ViewCounter } from '@rc/shared-kernel';
import { GuideBodyCache } from './guide-body-cache.js';
import { PublicGuideBodies, withViewer } from './public-guide-bodies.js';

/** The views a kept guide body shows: one count per wall-clock window (see ViewWindows), whatever the flushes learn meanwhile. */
describe('PublicGuideBodies views windows', () => {
  let now: number;
  const known = new Map<number, number>();
  const views = { known: (id: number) => known.get(id), record: () => undefined, learn: () => undefined } as unknown as ViewCounter;
  const unused = undefined as never;
  const bodiesWith = (refreshMs: number) => {
    const cache = new GuideBodyCache({ maxBytes: 1_000_000, maxAgeMs: 60_000 }, () => now);
    const windows = new ViewWindows(refreshMs, () => now);
    const bodies = new PublicGuideBodies(unused, unused, cache, unused, unused, { warn: () => undefined }, undefined, { views, viewWindows: windows });
    // A kept body of guide 1, version 5, made in the current window, showing 10 views.
    cache.put('1:inline', '5.0', JSON.stringify({ guideid: 1, revisionid: 5, views: 10 }), [], true, windows.current());
    return bodies;
  };
  const shown = (bodies: PublicGuideBodies) => {
    const entry = bodies.cached(1, true, '5.0')!;
    return { views: entry.views, etag: entry.etag };
  };

  beforeEach(() => {
    now = 990_000; // the start of a window of 30 s
    known.clear();
  });

  it('keeps the count and ETag for the rest of the window however often a higher total is learned, then shows the total known', () => {
    const bodies = bodiesWith(30_000);
    const first = shown(bodies);
    known.set(1, 14);
    now += 10_000;
    expect(shown(bodies)).toEqual(first);
    known.set(1, 20);
    now += 19_999;
    expect(shown(bodies)).toEqual(first);
    now += 1; // the next window
    const next = shown(bodies);
    expect(next.views).toBe(20);
    expect(next.etag).not.toBe(first.etag);
    known.set(1, 25);
    now += 29_999;
    expect(shown(bodies)).toEqual(next);
  });

  it('aligns windows on the clock: a body made late in a window changes at the next window, not refreshMs later', () => {
    now = 1_019_000;
    const bodies = bodiesWith(30_000);
    expect(shown(bodies).views).toBe(10);
    known.set(1, 12);
    expect(shown(bodies).views).toBe(10);
    now = 1_020_000;
    expect(shown(bodies).views).toBe(12);
  });

  it('shows one count per guide in a window: a body of another key, or made again, shows the count its first body set', () => {
    const cache = new GuideBodyCache({ maxBytes: 1_000_000, maxAgeMs: 60_000 }, () => now);
    const windows = new ViewWindows(30_000, () => now);
    const bodies = new PublicGuideBodies(unused, unused, cache, unused, unused, { warn: () => undefined }, undefined, { views, viewWindows: windows });
    cache.put('1:inline', '5.0', JSON.stringify({ guideid: 1, revisionid: 5, views: 10 }), [], true, windows.current());
    known.set(1, 11);
    expect(bodies.cached(1, true, '5.0')!.views).toBe(11);
    known.set(1, 14);
    // Made later in the window, from a template that shows more.
    cache.put('1:own', '5.0', JSON.stringify({ guideid: 1, revisionid: 5, views: 13 }), [], true, windows.current());
    expect(bodies.cached(1, false, '5.0')!.views).toBe(11);
    expect(bodies.cached(1, true, '5.0')!.views).toBe(11);
    now += 30_000;
    expect([bodies.cached(1, true, '5.0')!.views, bodies.cached(1, false, '5.0')!.views]).toEqual([14, 14]);
  });

  it('never shows a lower count, and shows a higher one at once without windows', () => {
    const bodies = bodiesWith(0);
    known.set(1, 3);
    now += 60_000;
    expect(shown(bodies).views).toBe(10);
    known.set(1, 11);
    expect(shown(bodies).views).toBe(11);
  });
});

describe('withViewer', () => {
  const anonymous = JSON.stringify({ title: 'Say "can_edit":false,"favorited":false,"completed":false', can_edit: false, favorited: false, completed: false, views: 3 });
  const reader = { canEdit: true, favorited: false, completed: true };

  it("sets the reader's three fields in the body's own keys, never in a text that spells them", () => {
    const read = withViewer(anonymous, reader);
    expect(JSON.parse(read!)).toEqual({ ...JSON.parse(anonymous), can_edit: true, completed: true });
    expect(JSON.parse(read!).title).toBe(JSON.parse(anonymous).title);
  });

  it('gives the same bytes from the kept Buffer as from the string', () => {
    expect(withViewer(Buffer.from(anonymous), reader)!.toString()).toBe(withViewer(anonymous, reader));
  });

  it('declines a body that does not hold the anonymous fields exactly once', () => {
    expect(withViewer(JSON.stringify({ can_edit: true, favorited: false, completed: false }), reader)).toBeNull();
    const twice = JSON.stringify({ a: { can_edit: false, favorited: false, completed: false }, can_edit: false, favorited: false, completed: false });
    expect(withViewer(twice, reader)).toBeNull();
    expect(withViewer(Buffer.from(twice), reader)).toBeNull();
  });
});
