import { LRUCache } from 'lru-cache';
import { ViewCounter } from '@rc/shared-kernel';
import { StampedBodies, ViewFlushing } from '@rc/shared-http';

/** The catalog's view counter (see ViewCounter): views of `GET /wikis/{namespace}/{title}`, written to `wiki_page_stats` in batches. */
export class WikiViewCounter extends ViewCounter {}

/** Flushes the catalog's view counter in the background and at shutdown. */
export class WikiViewFlushing extends ViewFlushing {}

/**
 * The `views` a page's body shows: the stored total (read with the rest of the page), taken once
 * per window of `refreshMs` (windows of wall-clock time, so instances behind one gateway change
 * their pages' bytes at about the same moments; 0: the total of every read). Stored totals grow with every flush (every few
 * seconds under traffic); shown as they come, they would change a page's bytes and ETag each time,
 * and a client or gateway revalidating its copy would rarely get a 304. So a body's `views` may be
 * up to `refreshMs` behind the stored total, as an anonymous guide body's may
 * (VIEW_REFRESH_SECONDS), never ahead.
 */
export class ShownWikiViews {
  private readonly shown: LRUCache<number, { readonly views: number; readonly window: number }>;

  constructor(
    private readonly refreshMs: number,
    private readonly now: () => number = Date.now,
    maxPages = 20_000,
  ) {
    this.shown = new LRUCache({ max: Math.max(1, maxPages) });
  }

  /** The current window (null: no windows, the total is read on every request). */
  window(): number | null {
    return this.refreshMs > 0 ? Math.floor(this.now() / this.refreshMs) : null;
  }

  /**
   * The views to show, given the stored total just read with the rest of the page: the total this
   * window already shows when there is one, else this one (then shown for the rest of the window).
   */
  settle(pageId: number, stored: number): number {
    const window = this.window();
    if (window === null) return stored;
    const kept = this.shown.get(pageId);
    if (kept?.window === window) return kept.views;
    this.shown.set(pageId, { views: stored, window });
    return stored;
  }
}

/** What a kept page body needs besides its bytes: the page (a read counts a view of it), the revision it represents, and the views window it shows. */
export interface KeptPage {
  readonly pageId: number;
  readonly revisionid: number;
  readonly modified: number | null;
  readonly window: number;
}

/**
 * Anonymous reads of the current revision of a page, in its own language, kept serialized with the
 * content stamp they were built after (see StampedBodies) and served within the views window they
 * show (ShownWikiViews): a change to the page, its tree, tags, authors, guides or images changes
 * the stamp. Nothing is kept when views are read on every request (VIEW_REFRESH_SECONDS=0).
 */
export class WikiPageBodies extends StampedBodies<KeptPage> {}
