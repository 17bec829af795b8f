import type { DocumentLink, ImageWriter } from '@rc/media-contracts';

/**
 * The documents guides list, as the media context has them (the application binds this port to
 * the media context's published `MediaDocuments`): their links for many ids in one lookup, and
 * which ids a writer may attach to a guide.
 */
export abstract class GuideDocuments {
  /** The links of these ids, by id; ids of no document (or of a deleted one) are left out. */
  abstract links(ids: readonly number[]): Promise<Map<number, DocumentLink>>;
  /** The ids among these that the writer may attach: their own documents (any for an Admin). */
  abstract usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>>;
}
