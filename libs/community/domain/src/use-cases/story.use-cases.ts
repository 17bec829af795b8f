import type { Clock, Page, UnitOfWork, Violation } from '@rc/shared-kernel';
import { InvalidStoryError, StoryChangeForbiddenError, StoryNotFoundError } from '../community.errors.js';
import type { CommunityActor } from '../model/comment.js';
import { Story, STORY_INTERVAL_MS, STORY_MIN_IMAGE, type StoryId, type StoryInput, type StoryState } from '../model/story.js';
import type { StoryListFilter, StoryQueries, StoryReferences, StoryRepository } from '../ports/story.ports.js';

export interface StoryDeps {
  readonly stories: StoryRepository;
  readonly references: StoryReferences;
  readonly clock: Clock;
  readonly uow: UnitOfWork;
}

/** Images must be the owner's own and at least 800×600; guides must be public. */
async function checkReferences(references: StoryReferences, ownerId: number, imageIds: readonly number[], guideIds: readonly number[]): Promise<void> {
  const violations: Violation[] = [];
  if (imageIds.length) {
    const sizes = await references.ownedImages(ownerId, imageIds);
    imageIds.forEach((id, index) => {
      const size = sizes.get(id);
      if (!size) violations.push({ field: 'images', message: `Image ${id} is not one of your images`, index });
      else if (size.width < STORY_MIN_IMAGE.width || size.height < STORY_MIN_IMAGE.height) {
        violations.push({ field: 'images', message: `Image ${id} is ${size.width}×${size.height}: story images must be at least ${STORY_MIN_IMAGE.width}×${STORY_MIN_IMAGE.height}`, index });
      }
    });
  }
  if (guideIds.length) {
    const found = await references.publicGuides(guideIds);
    guideIds.forEach((id, index) => {
      if (!found.has(id)) violations.push({ field: 'guides', message: `Guide ${id} does not exist or is not public`, index });
    });
  }
  if (violations.length) throw new InvalidStoryError(violations);
}

/** A post: the new story, or (one per user per minute) the latest one and how long to wait. */
export type StoryPostOutcome = { readonly created: true; readonly story: StoryState } | { readonly created: false; readonly latest: StoryState; readonly retryAfterSeconds: number };

/** Posts a story as the signed-in actor: at most one per user per minute. */
export class PostStory {
  constructor(private readonly deps: StoryDeps) {}

  async execute(input: { actor: CommunityActor; fields: StoryInput }): Promise<StoryPostOutcome> {
    const { deps } = this;
    return deps.uow.run(async () => {
      const now = deps.clock.now();
      await deps.stories.lockAuthor(input.actor.userId);
      const latest = await deps.stories.latestBy(input.actor.userId);
      const since = latest ? now.getTime() - latest.createdAt.getTime() : Infinity;
      if (latest && since < STORY_INTERVAL_MS) {
        return { created: false, latest, retryAfterSeconds: Math.max(1, Math.ceil((STORY_INTERVAL_MS - since) / 1000)) };
      }
      const story = Story.create(await deps.stories.nextId(), input.actor, input.fields, now);
      await checkReferences(deps.references, input.actor.userId, story.state.imageIds, story.state.guideIds);
      await deps.stories.save(story);
      return { created: true, story: story.state };
    });
  }
}

/**
 * Edits a story: its author or an Admin. Anyone else is refused even when the story does not
 * exist (as the original); an Admin gets a 404 then. Images added must be the author's own.
 */
export class EditStory {
  constructor(private readonly deps: StoryDeps) {}

  async execute(input: { actor: CommunityActor; storyId: StoryId | null; fields: StoryInput }): Promise<StoryState> {
    const { deps } = this;
    return deps.uow.run(async () => {
      const story = input.storyId === null ? null : await deps.stories.findForUpdate(input.storyId);
      if (!story) throw input.actor.isAdmin ? new StoryNotFoundError() : new StoryChangeForbiddenError();
      if (!story.mayEdit(input.actor)) throw new StoryChangeForbiddenError();
      const before = story.state.guideIds;
      const added = story.edit(input.fields, deps.clock.now());
      const newGuides = story.state.guideIds.filter((id) => !before.includes(id));
      await checkReferences(deps.references, story.state.authorId, added, newGuides);
      if (story.hasChanges) await deps.stories.save(story);
      return story.state;
    });
  }
}

/** An open story (Admins see any). */
export class ViewStory {
  constructor(private readonly stories: StoryRepository) {}

  async execute(input: { viewer: CommunityActor | null; storyId: StoryId | null }): Promise<StoryState> {
    const story = input.storyId === null ? null : await this.stories.find(input.storyId);
    if (!story || (story.status !== 'open' && !input.viewer?.isAdmin)) throw new StoryNotFoundError();
    return story;
  }
}

export class ListStories {
  constructor(private readonly queries: StoryQueries) {}

  execute(input: { filter: StoryListFilter; page: Page }): Promise<StoryState[]> {
    return this.queries.list(input.filter, input.page);
  }
}
