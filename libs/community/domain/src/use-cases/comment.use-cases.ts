import type { Clock, IntegrationEvents, IntegrationEventType, Page, UnitOfWork } from '@rc/shared-kernel';
import { CommentNotFoundError, CommentTargetNotFoundError, InvalidCommentError, PrivateCommentTargetError } from '../community.errors.js';
import { Comment, COMMENT_CONTEXTS, FOREIGN_COMMENT_CONTEXTS, threadsOf, type CommentContext, type CommentId, type CommentInput, type CommentState, type CommentThread, type CommunityActor } from '../model/comment.js';
import type { CommentListFilter, CommentQueries, CommentRepository, CommentTargets } from '../ports/comment.ports.js';
import type { StoryRepository } from '../ports/story.ports.js';
import type { StoryId } from '../model/story.js';

export interface CommentDeps {
  readonly comments: CommentRepository;
  readonly queries: CommentQueries;
  readonly targets: CommentTargets;
  readonly stories: StoryRepository;
  readonly clock: Clock;
  readonly uow: UnitOfWork;
  /** What the outside world (webhooks) hears of comment changes. */
  readonly events: IntegrationEvents;
}

/** Tells the outside world of a comment change, in the change's unit of work (about `comment:<id>`). */
function publishComment(deps: CommentDeps, type: IntegrationEventType, c: CommentState, userId: number): Promise<void> {
  return deps.events.publish({
    type,
    resource: `comment:${c.id}`,
    data: { commentid: c.id, context: c.context, contextid: c.contextId, guideid: c.guideId, parentid: c.parentId, userid: userId },
    at: deps.clock.now(),
  });
}

const TARGET_NAMES: Record<CommentContext, string> = { guide: 'Guide', step: 'Step', wiki: 'Wiki', story: 'Story' };

/** The viewer may see the comments that follow this guide's visibility (404 when the guide is gone, 403 when private). */
async function assertGuideVisible(targets: CommentTargets, guideId: number | null, viewer: CommunityActor | null): Promise<void> {
  if (guideId === null) return;
  const seen = await targets.guides([guideId], viewer);
  if (!seen.existing.has(guideId)) throw new CommentNotFoundError();
  if (!seen.visible.has(guideId)) throw new PrivateCommentTargetError();
}

/** The top-level comment and replies of a thread, for presenting one comment. */
export interface CommentWithReplies {
  readonly comment: CommentState;
  readonly replies: readonly CommentState[];
}

/**
 * Posts a comment on a guide, a step, a wiki page or a story, as the signed-in actor; a reply
 * (`parentid`) answers a live top-level comment on the same target. Private guides' comments (and
 * their steps') may be posted by those who may see the guide.
 */
export class PostComment {
  constructor(private readonly deps: CommentDeps) {}

  async execute(input: { actor: CommunityActor; context: string; contextId: number | null; fields: CommentInput }): Promise<Comment> {
    const context = input.context as CommentContext;
    if ((FOREIGN_COMMENT_CONTEXTS as readonly string[]).includes(input.context)) throw new CommentTargetNotFoundError('Post');
    if (!COMMENT_CONTEXTS.includes(context)) {
      throw new InvalidCommentError([{ field: 'context', message: `context must be one of ${COMMENT_CONTEXTS.join(', ')}` }]);
    }
    if (input.contextId === null) throw new CommentTargetNotFoundError(TARGET_NAMES[context]);
    const contextId = input.contextId;
    const { deps } = this;
    return deps.uow.run(async () => {
      let guideId: number | null = null;
      if (context === 'story') {
        const story = await deps.stories.find(contextId as StoryId);
        if (!story || story.status !== 'open') throw new CommentTargetNotFoundError('Story');
      } else {
        const target = await deps.targets.resolve(context, contextId);
        if (!target) throw new CommentTargetNotFoundError(TARGET_NAMES[context]);
        guideId = target.guideId;
        await assertGuideVisible(deps.targets, guideId, input.actor);
      }
      const parentRaw = input.fields.parentid;
      const parent = typeof parentRaw === 'number' && Number.isSafeInteger(parentRaw) && parentRaw > 0 ? await deps.comments.find(parentRaw as CommentId) : null;
      const comment = Comment.post(await deps.comments.nextId(), input.actor, { context, contextId, guideId }, input.fields, parent, deps.clock.now());
      await deps.comments.save(comment);
      if (guideId !== null) await deps.targets.discussionChanged(guideId);
      await publishComment(deps, 'comment.created', comment.state, input.actor.userId);
      return comment;
    });
  }
}

/** One comment (a deleted one shows as deleted), with its replies when it is a top-level comment. */
export class ViewComment {
  constructor(private readonly deps: Pick<CommentDeps, 'queries' | 'targets'>) {}

  async execute(input: { viewer: CommunityActor | null; commentId: CommentId }): Promise<CommentWithReplies> {
    const thread = await this.deps.queries.thread(input.commentId);
    if (!thread) throw new CommentNotFoundError();
    await assertGuideVisible(this.deps.targets, thread.comment.guideId, input.viewer);
    return { comment: thread.comment, replies: [...thread.replies].sort((a, b) => b.id - a.id) };
  }
}

/**
 * Live comments by id, paged, each top-level one with its replies; comments of guides the viewer
 * may not see are left out of the page (so a page may be shorter than `limit` while later pages
 * still hold comments).
 */
export class ListComments {
  constructor(private readonly deps: Pick<CommentDeps, 'queries' | 'targets'>) {}

  async execute(input: { viewer: CommunityActor | null; filter: CommentListFilter; page: Page }): Promise<CommentWithReplies[]> {
    const page = await this.deps.queries.list(input.filter, input.page);
    const guideIds = [...new Set(page.flatMap((c) => (c.guideId === null ? [] : [c.guideId])))];
    const seen = guideIds.length ? await this.deps.targets.guides(guideIds, input.viewer) : { visible: new Set<number>() };
    const kept = page.filter((c) => c.guideId === null || seen.visible.has(c.guideId));
    const topLevel = kept.filter((c) => c.parentId === null).map((c) => c.id);
    const replies = topLevel.length ? await this.deps.queries.repliesTo(topLevel) : [];
    return kept.map((comment) => ({ comment, replies: replies.filter((r) => r.parentId === comment.id).sort((a, b) => b.id - a.id) }));
  }
}

/** New text for a comment: its author within five minutes of posting, or an Admin. */
export class EditComment {
  constructor(private readonly deps: CommentDeps) {}

  async execute(input: { actor: CommunityActor; commentId: CommentId; fields: { text?: unknown } }): Promise<CommentWithReplies> {
    const { deps } = this;
    const comment = await deps.uow.run(async () => {
      const found = await deps.comments.findForUpdate(input.commentId);
      if (!found || found.isDeleted) throw new CommentNotFoundError();
      await assertGuideVisible(deps.targets, found.state.guideId, input.actor);
      found.edit(input.actor, input.fields, deps.clock.now());
      if (found.hasChanges) {
        await deps.comments.save(found);
        if (found.state.guideId !== null) await deps.targets.discussionChanged(found.state.guideId);
        await publishComment(deps, 'comment.edited', found.state, input.actor.userId);
      }
      return found.state;
    });
    const replies = comment.parentId === null ? await deps.queries.repliesTo([comment.id]) : [];
    return { comment, replies: replies.sort((a, b) => b.id - a.id) };
  }
}

/** Soft-deletes a comment: its author or an Admin. Its replies stay readable. */
export class DeleteComment {
  constructor(private readonly deps: CommentDeps) {}

  async execute(input: { actor: CommunityActor; commentId: CommentId }): Promise<void> {
    const { deps } = this;
    await deps.uow.run(async () => {
      const found = await deps.comments.findForUpdate(input.commentId);
      if (!found || found.isDeleted) throw new CommentNotFoundError();
      await assertGuideVisible(deps.targets, found.state.guideId, input.actor);
      found.delete(input.actor, deps.clock.now());
      await deps.comments.save(found);
      if (found.state.guideId !== null) await deps.targets.discussionChanged(found.state.guideId);
      await publishComment(deps, 'comment.deleted', found.state, input.actor.userId);
    });
  }
}

/** The threads on some guides and steps (for guide bodies), in one lookup. */
export class ThreadsOfGuides {
  constructor(private readonly queries: CommentQueries) {}

  async execute(targets: { guideIds: readonly number[]; stepIds: readonly number[] }): Promise<{ guides: Map<number, CommentThread[]>; steps: Map<number, CommentThread[]> }> {
    const wanted = [
      ...(targets.guideIds.length ? [{ context: 'guide' as const, ids: targets.guideIds }] : []),
      ...(targets.stepIds.length ? [{ context: 'step' as const, ids: targets.stepIds }] : []),
    ];
    const all = wanted.length ? await this.queries.onTargets(wanted) : [];
    const group = (context: CommentContext) => {
      const by = new Map<number, CommentState[]>();
      for (const c of all) if (c.context === context) by.set(c.contextId, [...(by.get(c.contextId) ?? []), c]);
      return new Map([...by].map(([id, list]) => [id, threadsOf(list)]));
    };
    return { guides: group('guide'), steps: group('step') };
  }
}
