import type { Brand, Violation } from '@rc/shared-kernel';
import type { CommentContext } from '@rc/community-contracts';
import { CommentChangeForbiddenError, CommentNotFoundError, InvalidCommentError } from '../community.errors.js';
import { readLangid, readText } from './text.js';

export type CommentId = Brand<number, 'CommentId'>;
export type { CommentContext };

export const COMMENT_CONTEXTS: readonly CommentContext[] = ['guide', 'step', 'wiki', 'story'];
/** Contexts of the original that name content this service does not keep (forum posts, blog posts). */
export const FOREIGN_COMMENT_CONTEXTS = ['post', 'wp_post'] as const;
export const COMMENT_TEXT_MAX = 10_000;
/** How long after posting the author may still edit a comment (Admins may edit any at any time). */
export const COMMENT_EDIT_WINDOW_MS = 5 * 60 * 1000;

export interface CommentState {
  readonly id: CommentId;
  readonly context: CommentContext;
  readonly contextId: number;
  /** The guide whose visibility the comment follows (the guide, or a step's guide); `null` for others. */
  readonly guideId: number | null;
  /** The top-level comment this one answers; `null` for a top-level comment. */
  readonly parentId: CommentId | null;
  readonly authorId: number;
  /** Raw wiki markup. */
  readonly text: string;
  readonly langid: string | null;
  readonly createdAt: Date;
  /** The last edit; `null` until the first (the API shows 0). */
  readonly modifiedAt: Date | null;
  /** Soft delete: the comment stays (its replies stay readable under it), its text is no longer shown. */
  readonly deletedAt: Date | null;
}

/** Who acts on a comment: a signed-in user, an Admin or not. */
export interface CommunityActor {
  readonly userId: number;
  readonly isAdmin: boolean;
}

/** The fields of a new comment as a client sent them (checked by `Comment.post`). */
export interface CommentInput {
  readonly text?: unknown;
  readonly parentid?: unknown;
  readonly langid?: unknown;
}

/**
 * A comment on a guide, a step, a wiki page or a story. Invariants: its text is valid, non-empty
 * markup of at most COMMENT_TEXT_MAX characters; a reply answers a live top-level comment on the
 * same target (threads are one level deep); only its author (within the edit window) or an Admin
 * edits it; only its author or an Admin deletes it, once.
 */
export class Comment {
  private changed = false;
  private fresh = false;

  private constructor(private current: CommentState) {}

  static restore(state: CommentState): Comment {
    return new Comment({ ...state });
  }

  /**
   * A new comment. `parent` is the comment `parentid` names (looked up by the caller; `null` when
   * none was given or it does not exist).
   */
  static post(
    id: CommentId,
    author: CommunityActor,
    target: { readonly context: CommentContext; readonly contextId: number; readonly guideId: number | null },
    input: CommentInput,
    parent: CommentState | null,
    now: Date,
  ): Comment {
    const violations: Violation[] = [];
    const text = readText(input.text, 'text', { max: COMMENT_TEXT_MAX }, violations);
    const langid = input.langid === undefined || input.langid === null ? null : (readLangid(input.langid, violations) ?? null);
    let parentId: CommentId | null = null;
    if (input.parentid !== undefined && input.parentid !== null) {
      if (!parent) violations.push({ field: 'parentid', message: 'parentid must name an existing comment' });
      else if (parent.deletedAt) violations.push({ field: 'parentid', message: 'The comment answered was deleted' });
      else if (parent.parentId !== null) violations.push({ field: 'parentid', message: 'Replies are one level deep: answer the top-level comment' });
      else if (parent.context !== target.context || parent.contextId !== target.contextId) violations.push({ field: 'parentid', message: 'The comment answered is on another page' });
      else parentId = parent.id;
    }
    if (violations.length) throw new InvalidCommentError(violations);
    const comment = new Comment({ id, ...target, parentId, authorId: author.userId, text: text!, langid, createdAt: now, modifiedAt: null, deletedAt: null });
    comment.fresh = true;
    comment.changed = true;
    return comment;
  }

  get id(): CommentId {
    return this.current.id;
  }

  get state(): CommentState {
    return this.current;
  }

  get isDeleted(): boolean {
    return this.current.deletedAt !== null;
  }

  get isNew(): boolean {
    return this.fresh;
  }

  get hasChanges(): boolean {
    return this.changed;
  }

  /** The author within the edit window, or an Admin. */
  mayEdit(actor: CommunityActor, now: Date): boolean {
    if (actor.isAdmin) return true;
    return actor.userId === this.current.authorId && now.getTime() - this.current.createdAt.getTime() <= COMMENT_EDIT_WINDOW_MS;
  }

  /** New text; the same text changes nothing (no new `modified_date`). */
  edit(actor: CommunityActor, input: { readonly text?: unknown }, now: Date): void {
    if (this.isDeleted) throw new CommentNotFoundError();
    if (!this.mayEdit(actor, now)) {
      throw new CommentChangeForbiddenError(
        actor.userId === this.current.authorId ? 'Comments may be edited within 5 minutes of posting' : 'Only the author of a comment or an Admin may edit it',
      );
    }
    const violations: Violation[] = [];
    const text = readText(input.text, 'text', { max: COMMENT_TEXT_MAX }, violations);
    if (violations.length) throw new InvalidCommentError(violations);
    if (text === this.current.text) return;
    this.current = { ...this.current, text: text!, modifiedAt: now };
    this.changed = true;
  }

  /** Soft delete by its author or an Admin; replies stay. */
  delete(actor: CommunityActor, now: Date): void {
    if (this.isDeleted) throw new CommentNotFoundError();
    if (!actor.isAdmin && actor.userId !== this.current.authorId) throw new CommentChangeForbiddenError('Only the author of a comment or an Admin may delete it');
    this.current = { ...this.current, deletedAt: now, modifiedAt: now };
    this.changed = true;
  }

  markStored(): void {
    this.changed = false;
    this.fresh = false;
  }
}

/** A top-level comment with its replies (newest first), as threads show them. */
export interface CommentThread {
  readonly comment: CommentState;
  readonly replies: readonly CommentState[];
}

/**
 * The threads of a set of comments: top-level comments oldest first, each with its live replies
 * newest first. A deleted top-level comment stays while it has live replies (so they stay
 * readable); deleted replies and deleted comments without replies are left out.
 */
export function threadsOf(comments: readonly CommentState[]): CommentThread[] {
  const replies = new Map<number, CommentState[]>();
  for (const c of comments) {
    if (c.parentId === null || c.deletedAt) continue;
    const list = replies.get(c.parentId) ?? [];
    list.push(c);
    replies.set(c.parentId, list);
  }
  return comments
    .filter((c) => c.parentId === null)
    .sort((a, b) => a.id - b.id)
    .map((c) => ({ comment: c, replies: (replies.get(c.id) ?? []).sort((a, b) => b.id - a.id) }))
    .filter((t) => !t.comment.deletedAt || t.replies.length > 0);
}
