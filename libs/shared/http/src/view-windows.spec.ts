import { ShownViews, ViewWindows } from './view-windows.js';

describe('ShownViews', () => {
  const stored = new Map<number, number>([[1, 10], [2, 20]]);
  let reads: number[];
  let now: number;
  const views = (refreshMs: number) => new ShownViews(async (id) => (reads.push(id), stored.get(id) ?? 0), refreshMs, () => now);

  beforeEach(() => {
    reads = [];
    now = 990_000; // the start of a window of 30 s
    stored.set(1, 10);
  });

  it('shows the total read at the start of a window until the window ends, per page', async () => {
    const shown = views(30_000);
    expect(await shown.of(1)).toBe(10);
    stored.set(1, 15);
    now += 29_000;
    expect(await shown.of(1)).toBe(10);
    expect(await shown.of(2)).toBe(20);
    expect(reads).toEqual([1, 2]);
    now += 1_000; // 1,020,000 ms: the next window
    expect(await shown.of(1)).toBe(15);
    expect(reads).toEqual([1, 2, 1]);
  });

  it('aligns windows on the clock, so instances change what they show at the same moments', async () => {
    now = 59_999;
    const shown = views(30_000);
    expect(await shown.of(1)).toBe(10);
    stored.set(1, 11);
    now = 60_000;
    expect(await shown.of(1)).toBe(11);
  });

  it('reads the stored total on every request with a refresh of 0', async () => {
    const shown = views(0);
    expect(await shown.of(1)).toBe(10);
    stored.set(1, 12);
    expect(await shown.of(1)).toBe(12);
    expect(reads).toEqual([1, 1]);
  });
});

describe('ViewWindows', () => {
  it('numbers wall-clock windows of refreshMs; none with 0', () => {
    let now = 59_999;
    const windows = new ViewWindows(30_000, () => now);
    expect(windows.current()).toBe(1);
    now = 60_000;
    expect(windows.current()).toBe(2);
    expect(new ViewWindows(0, () => now).current()).toBeNull();
  });
});
