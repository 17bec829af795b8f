import { namespaceOf } from '@rc/catalog-domain';
import { ViewCounter } from '@rc/shared-kernel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { representsRevision, StampedBodies, ViewFlushing, ViewWindows, type KeptRoute, type StampedBody } from '@rc/shared-http';

/** The catalog's view counter (see ViewCounter): views of `GET /wikis/{namespace}/{title}`, written to `wiki_page_stats` in batches. */
export class WikiViewCounter extends ViewCounter {}

/** Flushes the catalog's view counter in the background and at shutdown. */
export class WikiViewFlushing extends ViewFlushing {}

/**
 * The `views` a page's body shows (see ViewWindows): the stored total, read with the rest of the
 * page, taken once per wall-clock window of VIEW_REFRESH_SECONDS (0: the total of every read), as
 * a guide body's are shown (PublicGuideBodies).
 */
export class ShownWikiViews {
  private readonly windows: ViewWindows;

  constructor(refreshMs: number, now: () => number = Date.now, maxPages = 20_000) {
    this.windows = new ViewWindows(refreshMs, now, maxPages);
  }

  /** The current window (null: no windows, the total is read on every request). */
  window(): number | null {
    return this.windows.current();
  }

  /**
   * The views to show, given the stored total just read with the rest of the page: the total this
   * window already shows when there is one, else this one (then shown for the rest of the window).
   */
  settle(pageId: number, stored: number): number {
    return this.windows.settle(pageId, stored);
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
 * Kept gzipped: reads spread over thousands of pages, each read again seldom.
 */
export class WikiPageBodies extends StampedBodies<KeptPage> {
  constructor(maxBytes: number) {
    super(maxBytes, Infinity, Date.now, { gzip: true });
  }
}

/** The key a page's kept body has (the page route's, for the namespace as the route reads it and the title as given). */
export function keptPageKey(namespace: string, title: string): string {
  return `${namespace}\u0000${title}`;
}

/**
 * The page route's kept answers as the hot path serves them (see KeptAnswers): an anonymous read
 * with no query (no `langid`, `revisionid` or `pretty`), within the views window its body shows,
 * counted as a view when it is a GET, with the revision's validators.
 */
export function keptPageRoute(bodies: WikiPageBodies, shown: ShownWikiViews, views: WikiViewCounter): KeptRoute<KeptPage> {
  return {
    route: '/wikis/:namespace/:title',
    bodies,
    key: (url, [namespace, title]) => (url.includes('?') ? null : keptPageKey(namespaceOf(namespace!), title!)),
    serve: (entry, req, res) => serveKeptPage(entry, shown.window(), req, res, views),
  };
}

/**
 * Whether a kept page is served in the views window `window` (it was built within it), and what
 * serving it does, on the route and ahead of Express alike: the revision's validators, a view
 * counted for a GET.
 */
export function serveKeptPage(entry: StampedBody<KeptPage>, window: number | null, req: IncomingMessage, res: ServerResponse, views: WikiViewCounter): boolean {
  if (window === null || entry.extra.window !== window) return false;
  representsRevision(res, entry.extra.revisionid, entry.extra.modified);
  if (req.method === 'GET') views.record(entry.extra.pageId);
  return true;
}
