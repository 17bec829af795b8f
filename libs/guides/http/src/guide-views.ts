import { ViewCounter } from '@rc/shared-kernel';
import { ViewFlushing } from '@rc/shared-http';

/** The guides' view counter (see ViewCounter): views of `GET /guides/{id}`, written to `guide_stats` in batches. */
export class GuideViewCounter extends ViewCounter {}

/** Flushes the guides' view counter in the background and at shutdown. */
export class GuideViewFlushing extends ViewFlushing {}
