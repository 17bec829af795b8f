import { ViewCounter } from '@rc/shared-kernel';
import { ShownViews, StampedBodies, ViewFlushing } from '@rc/shared-http';

/** The catalog's view counter (see ViewCounter): views of `GET /wikis/{namespace}/{title}`, written to `wiki_page_stats` in batches. */
export class WikiViewCounter extends ViewCounter {}

/** Flushes the catalog's view counter in the background and at shutdown. */
export class WikiViewFlushing extends ViewFlushing {}

/**
 * The `views` a page's body shows (see ShownViews and ViewWindows): the stored total, read again
 * once per wall-clock window of VIEW_REFRESH_SECONDS (0: read on every request), as a guide body's
 * are shown (PublicGuideBodies).
 */
export class ShownWikiViews extends ShownViews {}

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
