import { CommunityImages } from '@rc/community-contracts';
import type { ImageId, MediaRepository } from '@rc/media-domain';

/** What the community context asks of images: the sizes of a user's own live images (stories take those of at least 800×600). */
export class ImagesForCommunity extends CommunityImages {
  constructor(private readonly media: MediaRepository) {
    super();
  }

  async ownedImageSizes(ownerId: number, ids: readonly number[]): Promise<Map<number, { width: number; height: number }>> {
    if (!ids.length) return new Map();
    const images = await this.media.findOwnedImages(ownerId, ids as ImageId[]);
    return new Map(images.map((image) => [image.id as number, { width: image.state.width, height: image.state.height }]));
  }
}
