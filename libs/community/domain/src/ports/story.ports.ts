import type { Page } from '@rc/shared-kernel';
import type { Story, StoryId, StoryState } from '../model/story.js';

export abstract class StoryRepository {
  abstract nextId(): Promise<StoryId>;
  /** The story, open or not, or `null`. */
  abstract find(id: StoryId): Promise<StoryState | null>;
  abstract findForUpdate(id: StoryId): Promise<Story | null>;
  /**
   * Serializes the story posts of one user until the surrounding unit of work ends (across
   * instances), so the one-per-minute rule holds under concurrent posts.
   */
  abstract lockAuthor(userId: number): Promise<void>;
  /** The user's latest story, or `null`. */
  abstract latestBy(userId: number): Promise<StoryState | null>;
  abstract save(story: Story): Promise<void>;
}

export interface StoryListFilter {
  readonly order: 'ASC' | 'DESC';
  /** Only stories that mention this product code. */
  readonly product?: string;
  /** Only stories that mention this guide. */
  readonly guideId?: number;
  /** Only stories with at least one image. */
  readonly requireImages: boolean;
  /** Stories in this language first (ordering only). */
  readonly langid?: string;
}

export abstract class StoryQueries {
  /** Open stories by id (those in `langid` first), paged; one query. */
  abstract list(filter: StoryListFilter, page: Page): Promise<StoryState[]>;
}

/** An image's size in pixels. */
export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/**
 * What stories refer to that other contexts own: images (the media context) and guides (the
 * guides context). The application binds it to those contexts.
 */
export abstract class StoryReferences {
  /** The sizes of those of `ids` that are live images owned by `ownerId`. */
  abstract ownedImages(ownerId: number, ids: readonly number[]): Promise<Map<number, ImageSize>>;
  /** Those of `ids` that are public, live guides. */
  abstract publicGuides(ids: readonly number[]): Promise<Set<number>>;
}
