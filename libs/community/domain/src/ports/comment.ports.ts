import type { Page } from '@rc/shared-kernel';
import type { Comment, CommentContext, CommentId, CommentState, CommunityActor } from '../model/comment.js';

export abstract class CommentRepository {
  /** A new id from the comments' sequence. */
  abstract nextId(): Promise<CommentId>;
  /** The comment, live or deleted (callers decide), or `null`. */
  abstract find(id: CommentId): Promise<CommentState | null>;
  /** The comment, locked until the surrounding unit of work ends. */
  abstract findForUpdate(id: CommentId): Promise<Comment | null>;
  /** Stores a new comment, or its changes (text, deletion). */
  abstract save(comment: Comment): Promise<void>;
}

export interface CommentListFilter {
  readonly order: 'ASC' | 'DESC';
  /** Only comments on this kind of target. */
  readonly context?: CommentContext;
  readonly langid?: string;
  /** Only comments edited at or after this time (never-edited comments have no edit time). */
  readonly modifiedSince?: Date;
}

/** Reads for lists and threads; each method is one query, whatever the number of comments. */
export abstract class CommentQueries {
  /** Live comments by id, paged. */
  abstract list(filter: CommentListFilter, page: Page): Promise<CommentState[]>;
  /** Every comment (deleted ones too) on these targets. */
  abstract onTargets(targets: readonly { readonly context: CommentContext; readonly ids: readonly number[] }[]): Promise<CommentState[]>;
  /** The live replies to these top-level comments. */
  abstract repliesTo(parentIds: readonly CommentId[]): Promise<CommentState[]>;
  /**
   * The comment, live or deleted (callers decide), and, when it is top-level, its live replies in
   * id order (a reply has none: threads are one level deep); `null` for no such comment.
   */
  abstract thread(id: CommentId): Promise<{ comment: CommentState; replies: CommentState[] } | null>;
}

/** What the guides or the catalog say of a comment's target. */
export interface ResolvedTarget {
  /** The guide whose visibility the comments follow (the guide itself, or a step's guide); `null` for a wiki page. */
  readonly guideId: number | null;
}

/** Which of some guides exist (not deleted), and which of them a viewer may see. */
export interface GuideVisibility {
  readonly existing: ReadonlySet<number>;
  readonly visible: ReadonlySet<number>;
}

/**
 * The content comments are posted on that other contexts own (guides and their steps: the guides
 * context; wiki pages: the catalog). The application binds it to those contexts.
 */
export abstract class CommentTargets {
  /** The guide, step or wiki page this names, or `null` when there is none (stories are this context's own). */
  abstract resolve(context: 'guide' | 'step' | 'wiki', id: number): Promise<ResolvedTarget | null>;
  /** The guides' visibility to a viewer (`null`: anonymous), by the guides' own rules, in one lookup. */
  abstract guides(guideIds: readonly number[], viewer: CommunityActor | null): Promise<GuideVisibility>;
  /**
   * Tells the guides context, inside the comment's unit of work, that a guide's (or one of its
   * steps') comments changed: the bodies it keeps of the guide must be built again.
   */
  abstract discussionChanged(guideId: number): Promise<void>;
}
