import { MediaImages, type ImageObject, type ImageWriter } from '@rc/media-contracts';
import type { ImagesForContent } from '@rc/media-domain';
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
    return new Map((await this.images.shown(ids)).map((image) => [image.id as number, presentImageObject(image, this.urls) as unknown as ImageObject]));
  }

  usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>> {
    return this.images.usableBy(writer, ids);
  }
}
