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

  /**
   * The count to show for `id` in `window` (by default the current one), given a total just read:
   * the one this window already shows when there is one, else this total (then shown for the rest
   * of the window). Without windows, the total itself.
   */
  settle(id: number, stored: number, window: number | null = this.current()): number {
    if (window === null) return stored;
    const kept = this.shown.get(id);
    if (kept?.window === window) return kept.views;
    this.shown.set(id, { views: stored, window });
    return stored;
  }
}
