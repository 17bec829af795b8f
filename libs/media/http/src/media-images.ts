import { MediaImageFiles, MediaImages, type ImageFile, type ImageObject, type ImageWriter } from '@rc/media-contracts';
import { isRenditionName, type ImagesForContent, type MediaStore } from '@rc/media-domain';
import { presentImageObject, type MediaUrls } from './media.presenter.js';

/** The media context's published `MediaImages`: Image objects as the media endpoints show them. */
export class MediaImagesForContent extends MediaImages {
  constructor(
    private readonly images: ImagesForContent,
    private readonly urls: MediaUrls,
  ) {
    super();
  }

  async objects(ids: readonly number[]): Promise<Map<number, ImageObject>> {
    return new Map((await this.images.objects(ids)).map((image) => [image.id as number, presentImageObject(image, this.urls) as unknown as ImageObject]));
  }

  usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>> {
    return this.images.usableBy(writer, ids);
  }
}

/** The media context's published `MediaImageFiles`: the sizes made of the images shown, read from the store as they stream. */
export class MediaImageFilesForContent extends MediaImageFiles {
  constructor(
    private readonly images: ImagesForContent,
    private readonly store: MediaStore,
  ) {
    super();
  }

  async *files(ids: readonly number[], sizes: readonly string[]): AsyncGenerator<ImageFile> {
    const wanted = sizes.filter(isRenditionName);
    for (const image of await this.images.shown(ids)) {
      for (const size of wanted) {
        if (!image.state.renditions[size]) continue;
        // A file gone meanwhile (the image rotated or purged since it was read) is left out.
        const stored = await this.store.get(image.renditionKey(size));
        if (!stored) continue;
        yield { imageId: image.id, size, contentType: stored.object.contentType, byteSize: stored.object.size, body: stored.body };
      }
    }
  }
}
