import { ViewCounter } from '@rc/shared-kernel';
import { ViewFlushing } from '@rc/shared-http';

/** The catalog's view counter (see ViewCounter): views of `GET /wikis/{namespace}/{title}`, written to `wiki_page_stats` in batches. */
export class WikiViewCounter extends ViewCounter {}

/** Flushes the catalog's view counter in the background and at shutdown. */
export class WikiViewFlushing extends ViewFlushing {}
