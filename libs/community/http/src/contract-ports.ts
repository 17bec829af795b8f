import type { WikiDirectory } from '@rc/catalog-contracts';
import { CommunityGuides, CommunityImages } from '@rc/community-contracts';
import { CommentTargets, StoryReferences, type CommunityActor, type GuideVisibility, type ImageSize, type ResolvedTarget } from '@rc/community-domain';

/** The community domain's targets, answered by the guides' port and the catalog's published directory. */
export class PublishedCommentTargets extends CommentTargets {
  constructor(
    private readonly guidesPort: CommunityGuides,
    private readonly pages: WikiDirectory,
  ) {
    super();
  }

  async resolve(context: 'guide' | 'step' | 'wiki', id: number): Promise<ResolvedTarget | null> {
    if (context === 'wiki') return (await this.pages.byIds([id])).has(id) ? { guideId: null } : null;
    const guideId = await this.guidesPort.guideOf(context, id);
    return guideId === null ? null : { guideId };
  }

  guides(guideIds: readonly number[], viewer: CommunityActor | null): Promise<GuideVisibility> {
    return this.guidesPort.visibility(guideIds, viewer);
  }

  discussionChanged(guideId: number): Promise<void> {
    return this.guidesPort.discussionChanged(guideId);
  }
}

/** What stories refer to, answered by the media's and the guides' published ports. */
export class PublishedStoryReferences extends StoryReferences {
  constructor(
    private readonly images: CommunityImages,
    private readonly guides: CommunityGuides,
  ) {
    super();
  }

  ownedImages(ownerId: number, ids: readonly number[]): Promise<Map<number, ImageSize>> {
    return this.images.ownedImageSizes(ownerId, ids);
  }

  async publicGuides(ids: readonly number[]): Promise<Set<number>> {
    return new Set((await this.guides.publicSummaries(ids)).keys());
  }
}
