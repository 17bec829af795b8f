import { LRUCache } from 'lru-cache';
import { ViewCounter } from '@rc/shared-kernel';
import { ViewFlushing } from '@rc/shared-http';

/** The catalog's view counter (see ViewCounter): views of `GET /wikis/{namespace}/{title}`, written to `wiki_page_stats` in batches. */
export class WikiViewCounter extends ViewCounter {}

/** Flushes the catalog's view counter in the background and at shutdown. */
export class WikiViewFlushing extends ViewFlushing {}

/**
 * The `views` a page's body shows: the stored total, read again once per window of `refreshMs`
 * (windows of wall-clock time, so instances behind one gateway change their pages' bytes at about
 * the same moments; 0: read on every request). Stored totals grow with every flush (every few
 * seconds under traffic); shown as they come, they would change a page's bytes and ETag each time,
 * and a client or gateway revalidating its copy would rarely get a 304. So a body's `views` may be
 * up to `refreshMs` behind the stored total, as an anonymous guide body's may
 * (VIEW_REFRESH_SECONDS), never ahead.
 */
export class ShownWikiViews {
  private readonly shown: LRUCache<number, { readonly views: number; readonly window: number }>;

  constructor(
    private readonly read: (pageId: number) => Promise<number>,
    private readonly refreshMs: number,
    private readonly now: () => number = Date.now,
    maxPages = 20_000,
  ) {
    this.shown = new LRUCache({ max: Math.max(1, maxPages) });
  }

  async of(pageId: number): Promise<number> {
    if (this.refreshMs <= 0) return this.read(pageId);
    const window = Math.floor(this.now() / this.refreshMs);
    const kept = this.shown.get(pageId);
    if (kept?.window === window) return kept.views;
    const views = await this.read(pageId);
    this.shown.set(pageId, { views, window });
    return views;
  }
}
