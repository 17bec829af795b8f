import type { ImageWriter } from '@rc/media-contracts';
import { isId } from '@rc/shared-kernel';
import type { Image, ShownImage } from '../model/image.js';
import type { ImageId } from '../model/media-ids.js';
import type { MediaDeps } from './media-deps.js';

/**
 * The images other contexts' content shows: many ids at once (one lookup for the images and their
 * sizes), and which ids a writer may put into content.
 */
export class ImagesForContent {
  constructor(private readonly deps: Pick<MediaDeps, 'media' | 'usage'>) {}

  /** The images of these ids whose files exist (deleted from a library but used: still shown). */
  async shown(ids: readonly number[]): Promise<Image[]> {
    const unique = imageIds(ids);
    if (!unique.length) return [];
    return (await this.deps.media.findImages(unique)).filter((image) => !image.isPurged);
  }

  /** What content shows of the images {@link shown} would answer (their Image objects), in a lighter lookup. */
  async objects(ids: readonly number[]): Promise<ShownImage[]> {
    const unique = imageIds(ids);
    return unique.length ? this.deps.media.findShownImages(unique) : [];
  }

  /**
   * The ids the writer may put into content: their own images still in their library, images
   * already shown by content they may view (someone else's image a page shows, say). Not
   * someone else's image that no content shows, even for an admin: that would publish a private
   * upload. Unknown ids never are.
   */
  async usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>> {
    const usable = new Set<number>();
    for (const image of await this.shown(ids)) {
      if (image.state.ownerId === writer.userId && !image.isDeleted) usable.add(image.id);
      else if (await this.deps.usage.visibleThroughContent('image', image.id, { userId: writer.userId, mayEditContent: false, isAdmin: writer.isAdmin })) usable.add(image.id);
    }
    return usable;
  }
}

/** The distinct ids among `ids` that can name an image (ids fit PostgreSQL's `integer`). */
function imageIds(ids: readonly number[]): ImageId[] {
  return [...new Set(ids)].filter(isId) as ImageId[];
}
