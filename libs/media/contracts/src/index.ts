/**
 * What the media context publishes to the contexts whose content shows images (guides, pages,
 * users' avatars, search results): the Image object, lookups of many ids at once, and the port
 * content implements so that the media context knows which content uses an image.
 */

/**
 * The Image object (reference §3.1): `id`, `guid`, the URL of each size made so far (a size not
 * made yet is left out, as the original service does) and `original` always.
 */
export interface ImageObject {
  readonly id: number;
  readonly guid: string;
  readonly [size: string]: string | number;
}

/** Who puts images into content. */
export interface ImageWriter {
  readonly userId: number;
  readonly isAdmin: boolean;
}

/** Who views content (`userId` null: anonymous). */
export interface ImageViewer {
  readonly userId: number | null;
  readonly isAdmin: boolean;
}

/** The media context's images as content shows them (the media HTTP module provides it). */
export abstract class MediaImages {
  /** The Image objects of these ids, by id, in one query; ids of no image (or of purged files) are left out. */
  abstract objects(ids: readonly number[]): Promise<Map<number, ImageObject>>;

  /**
   * Which of these ids the writer may put into content: images of their own library, or images
   * already shown by content the writer may view (never someone else's image no content shows).
   */
  abstract usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>>;
}

/**
 * A document as content lists it (a guide's `documents`, reference §3.5's minimal form): its id,
 * title, site-relative page and file URL.
 */
export interface DocumentLink {
  readonly documentid: number;
  readonly text: string;
  readonly url: string;
  readonly download_url: string;
}

/** The media context's documents as content lists them (the media HTTP module provides it). */
export abstract class MediaDocuments {
  /** The links of these ids, by id, in one query; ids of no document (or of a deleted one) are left out. */
  abstract links(ids: readonly number[]): Promise<Map<number, DocumentLink>>;
  /** Which of these ids the writer may attach to content: documents of their own (any live one for an Admin). */
  abstract usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>>;
}

/**
 * One size of an image as a file, its bytes streamed from the media store (never whole in memory).
 */
export interface ImageFile {
  readonly imageId: number;
  /** The size's name (`thumbnail`, `standard`, …). */
  readonly size: string;
  /** The file's type (`image/jpeg`, `image/png`, …). */
  readonly contentType: string;
  /** Its length in bytes. */
  readonly byteSize: number;
  readonly body: AsyncIterable<Uint8Array>;
}

/** The image files themselves, for content packed to be read offline (the archive). */
export abstract class MediaImageFiles {
  /**
   * The files of these sizes of these images, of the sizes made so far and of images still shown
   * (as `MediaImages.objects` answers them), one after another: each is opened only when the
   * iteration reaches it, and its body must be read to the end before the next one is asked for.
   */
  abstract files(ids: readonly number[], sizes: readonly string[]): AsyncIterable<ImageFile>;
}

/**
 * Content of one context that shows images, as the media context asks about it: each content
 * context implements it over its own tables and the application hands them to the media context.
 */
export abstract class ImagesInContent {
  /** Which of these images some content uses (whatever its state: published or not). */
  abstract usedAmong(ids: readonly number[]): Promise<Set<number>>;

  /** Whether the image appears in content this viewer may view. */
  abstract visibleTo(id: number, viewer: ImageViewer): Promise<boolean>;

  /**
   * The files of these images changed (sizes made, rotated, removed from the library): content
   * that keeps their Image objects (built bodies, caches) drops them, on every instance.
   */
  abstract changed(ids: readonly number[]): Promise<void>;
}

/** The Image object of `id`, or `null` for no id or an image that is gone. */
export function imageOrNull(images: ReadonlyMap<number, ImageObject>, id: number | null): ImageObject | null {
  return id === null ? null : (images.get(id) ?? null);
}
