import { MediaNotViewableError } from '../media.errors.js';
import type { MediaKind } from '../model/media-ids.js';
import type { MediaViewer } from '../model/media-viewer.js';
import type { MediaUsage } from '../ports/media-usage.js';

/**
 * The reference's rule (§2.9): media is visible to its owner, to those who may edit any content
 * (and Admins), and to anyone who may view content it appears in; otherwise 403.
 */
export async function assertViewable(usage: MediaUsage, kind: MediaKind, id: number, ownerId: number, viewer: MediaViewer): Promise<void> {
  if (viewer.isAdmin || viewer.mayEditContent) return;
  if (viewer.userId !== null && viewer.userId === ownerId) return;
  if (await usage.visibleThroughContent(kind, id, viewer)) return;
  throw new MediaNotViewableError(kind);
}
