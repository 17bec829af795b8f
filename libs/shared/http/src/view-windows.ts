import { LRUCache } from 'lru-cache';

/**
 * Wall-clock windows of `refreshMs` in which a body shows one view count. Stored totals grow with
 * every flush of a view counter (every few seconds under traffic); shown as they come, they would
 * change a body's bytes and ETag each time, and a client or gateway revalidating its copy would
 * rarely get a 304. So a body shows the total known at the start of its window, up to `refreshMs`
 * behind the stored one (never ahead), and changes only when a window starts. The windows are
 * aligned on the clock (window n covers [n × refreshMs, (n + 1) × refreshMs)), so instances behind
 * one gateway change their bodies at about the same moments. A `refreshMs` of 0 means no windows:
 * the stored total is shown as soon as it is known.
 */
export class ViewWindows {
  /** Id → the count its bodies show in a window (the latest window each id was shown in). */
  private readonly shown: LRUCache<number, { readonly views: number; readonly window: number }>;

  constructor(
    readonly refreshMs: number,
    private readonly now: () => number = Date.now,
    maxIds = 20_000,
  ) {
    this.shown = new LRUCache({ max: Math.max(1, maxIds) });
  }

  /** The current window (null: no windows, a newer total is shown at once). */
  current(): number | null {
    return this.refreshMs > 0 ? Math.floor(this.now() / this.refreshMs) : null;
  }

  /** The count `id`'s bodies show in `window`, once set (`show`): every body of it built in the window shows that one. */
  shownIn(id: number, window: number): number | undefined {
    const kept = this.shown.get(id);
    return kept?.window === window ? kept.views : undefined;
  }

  show(id: number, views: number, window: number): void {
    this.shown.set(id, { views, window });
  }
}

/**
 * The `views` bodies of a kind show (see ViewWindows): the stored total, read again once per
 * window for each id (0: read on every request).
 */
export class ShownViews {
  private readonly windows: ViewWindows;

  constructor(
    private readonly read: (id: number) => Promise<number>,
    refreshMs: number,
    now: () => number = Date.now,
    maxIds = 20_000,
  ) {
    this.windows = new ViewWindows(refreshMs, now, maxIds);
  }

  /** The current window (null: no windows, the total is read on every request). */
  window(): number | null {
    return this.windows.current();
  }

  async of(id: number): Promise<number> {
    const window = this.window();
    if (window === null) return this.read(id);
    const kept = this.windows.shownIn(id, window);
    if (kept !== undefined) return kept;
    const views = await this.read(id);
    this.windows.show(id, views, window);
    return views;
  }
}
