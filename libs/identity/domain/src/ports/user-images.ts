import type { ImageObject, ImageWriter } from '@rc/media-contracts';

/**
 * Users' avatars, as the media context has them (the application binds this port to the media
 * context's published `MediaImages`): Image objects for many ids in one lookup, and which ids a
 * user may take as their avatar.
 */
export abstract class UserImages {
  /** The Image objects of these ids, by id; ids of no image (or of files gone) are left out. */
  abstract objects(ids: readonly number[]): Promise<Map<number, ImageObject>>;
  /** The ids among these that the user may show: their own images, or images of content they may view. */
  abstract usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>>;
}
