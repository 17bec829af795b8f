import type { ImageObject, ImageWriter } from '@rc/media-contracts';

/**
 * The images guides show, as the media context has them (the application binds this port to the
 * media context's published `MediaImages`): Image objects for many ids in one lookup, and which
 * ids a writer may put into a guide.
 */
export abstract class GuideImages {
  /** The Image objects of these ids, by id; ids of no image (or of files gone) are left out. */
  abstract objects(ids: readonly number[]): Promise<Map<number, ImageObject>>;
  /** The ids among these that the writer may show: their own images, or images of content they may view. */
  abstract usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>>;
}
