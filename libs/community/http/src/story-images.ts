import type { ImageObject } from '@rc/media-contracts';

/**
 * The Image objects stories show (the media context's, the sizes made so far): the app binds this
 * port to the media's published `MediaImages`, as it binds the guides', pages' and avatars' own.
 */
export abstract class StoryImages {
  /** The Image objects of these ids, by id, in one lookup; ids of no image (or of purged files) are left out. */
  abstract objects(ids: readonly number[]): Promise<Map<number, ImageObject>>;
}
