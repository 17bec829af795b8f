import type { Page } from '@rc/shared-kernel';
import { Comment, type CommentContext, type CommentId, type CommentState, type CommunityActor } from '../model/comment.js';
import { Story, type StoryId, type StoryState } from '../model/story.js';
import { CommentQueries, CommentRepository, CommentTargets, type CommentListFilter, type GuideVisibility, type ResolvedTarget } from '../ports/comment.ports.js';
import { StoryQueries, StoryReferences, StoryRepository, type ImageSize, type StoryListFilter } from '../ports/story.ports.js';

/** Comments in memory, for domain unit tests. */
export class InMemoryComments extends CommentRepository {
  readonly rows = new Map<number, CommentState>();
  private seq = 0;

  async nextId(): Promise<CommentId> {
    return ++this.seq as CommentId;
  }

  async find(id: CommentId): Promise<CommentState | null> {
    return this.rows.get(id) ?? null;
  }

  async findForUpdate(id: CommentId): Promise<Comment | null> {
    const row = this.rows.get(id);
    return row ? Comment.restore(row) : null;
  }

  async save(comment: Comment): Promise<void> {
    this.rows.set(comment.id, comment.state);
    comment.markStored();
  }
}

export class InMemoryCommentQueries extends CommentQueries {
  constructor(private readonly comments: InMemoryComments) {
    super();
  }

  async list(filter: CommentListFilter, page: Page): Promise<CommentState[]> {
    const rows = [...this.comments.rows.values()]
      .filter((c) => !c.deletedAt && (!filter.context || c.context === filter.context) && (!filter.langid || c.langid === filter.langid))
      .filter((c) => !filter.modifiedSince || (c.modifiedAt !== null && c.modifiedAt >= filter.modifiedSince))
      .sort((a, b) => (filter.order === 'DESC' ? b.id - a.id : a.id - b.id));
    return rows.slice(page.offset, page.offset + page.limit);
  }

  async onTargets(targets: readonly { context: CommentContext; ids: readonly number[] }[]): Promise<CommentState[]> {
    return [...this.comments.rows.values()].filter((c) => targets.some((t) => t.context === c.context && t.ids.includes(c.contextId)));
  }

  async repliesTo(parentIds: readonly CommentId[]): Promise<CommentState[]> {
    return [...this.comments.rows.values()].filter((c) => c.parentId !== null && parentIds.includes(c.parentId) && !c.deletedAt);
  }

  async thread(id: CommentId): Promise<{ comment: CommentState; replies: CommentState[] } | null> {
    const comment = this.comments.rows.get(id);
    if (!comment) return null;
    return { comment, replies: comment.parentId === null ? (await this.repliesTo([id])).sort((a, b) => a.id - b.id) : [] };
  }
}

/** Guides (public or private, with their author), steps and wiki pages, as the other contexts would answer. */
export class InMemoryCommentTargets extends CommentTargets {
  readonly guides_ = new Map<number, { isPublic: boolean; authorId: number; deleted?: boolean }>();
  readonly steps = new Map<number, number>();
  readonly wikis = new Set<number>();
  /** Guides told of a change, in order. */
  readonly changed: number[] = [];

  async resolve(context: 'guide' | 'step' | 'wiki', id: number): Promise<ResolvedTarget | null> {
    if (context === 'wiki') return this.wikis.has(id) ? { guideId: null } : null;
    const guideId = context === 'guide' ? id : this.steps.get(id);
    if (guideId === undefined) return null;
    const guide = this.guides_.get(guideId);
    return guide && !guide.deleted ? { guideId } : null;
  }

  async guides(guideIds: readonly number[], viewer: CommunityActor | null): Promise<GuideVisibility> {
    const existing = new Set(guideIds.filter((id) => this.guides_.has(id) && !this.guides_.get(id)!.deleted));
    const visible = new Set([...existing].filter((id) => {
      const g = this.guides_.get(id)!;
      return g.isPublic || !!viewer?.isAdmin || viewer?.userId === g.authorId;
    }));
    return { existing, visible };
  }

  async discussionChanged(guideId: number): Promise<void> {
    this.changed.push(guideId);
  }
}

export class InMemoryStories extends StoryRepository {
  readonly rows = new Map<number, StoryState>();
  locks = 0;
  private seq = 0;

  async nextId(): Promise<StoryId> {
    return ++this.seq as StoryId;
  }

  async find(id: StoryId): Promise<StoryState | null> {
    return this.rows.get(id) ?? null;
  }

  async findForUpdate(id: StoryId): Promise<Story | null> {
    const row = this.rows.get(id);
    return row ? Story.restore(row) : null;
  }

  async lockAuthor(): Promise<void> {
    this.locks++;
  }

  async latestBy(userId: number): Promise<StoryState | null> {
    return [...this.rows.values()].filter((s) => s.authorId === userId).sort((a, b) => b.id - a.id)[0] ?? null;
  }

  async save(story: Story): Promise<void> {
    this.rows.set(story.id, story.state);
    story.markStored();
  }
}

export class InMemoryStoryQueries extends StoryQueries {
  constructor(private readonly stories: InMemoryStories) {
    super();
  }

  async list(filter: StoryListFilter, page: Page): Promise<StoryState[]> {
    const rows = [...this.stories.rows.values()]
      .filter((s) => s.status === 'open')
      .filter((s) => (!filter.product || s.products.includes(filter.product)) && (!filter.guideId || s.guideIds.includes(filter.guideId)) && (!filter.requireImages || s.imageIds.length > 0))
      .sort((a, b) => (filter.order === 'DESC' ? b.id - a.id : a.id - b.id));
    return rows.slice(page.offset, page.offset + page.limit);
  }
}

export class InMemoryStoryReferences extends StoryReferences {
  /** Image id → owner and size. */
  readonly images = new Map<number, { ownerId: number } & ImageSize>();
  readonly publicGuideIds = new Set<number>();

  async ownedImages(ownerId: number, ids: readonly number[]): Promise<Map<number, ImageSize>> {
    return new Map(ids.flatMap((id) => {
      const image = this.images.get(id);
      return image && image.ownerId === ownerId ? [[id, { width: image.width, height: image.height }] as const] : [];
    }));
  }

  async publicGuides(ids: readonly number[]): Promise<Set<number>> {
    return new Set(ids.filter((id) => this.publicGuideIds.has(id)));
  }
}
