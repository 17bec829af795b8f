// What the community context publishes to the others: comments as bodies show them, and the port
// guide bodies read the comments of a guide and its steps through.

/** Where a comment is posted (reference §3.12 `context`). */
export type CommentContext = 'guide' | 'step' | 'wiki' | 'story';

/**
 * A comment (reference §3.12) as any body shows it, less its `author` object: the showing context
 * fills that in from its own user lookup (one batch for the whole body), by `authorId`.
 */
export interface PublishedComment {
  readonly commentid: number;
  readonly locale: string | null;
  readonly context: CommentContext;
  readonly contextid: number;
  readonly parentid: number | null;
  readonly title: string;
  readonly text_raw: string;
  readonly text_rendered: string;
  readonly date: number;
  readonly modified_date: number;
  readonly status: 'public' | 'deleted';
  readonly rating: 0;
  readonly authorId: number;
  /** Top-level comments only: the replies, newest first. */
  readonly replies: readonly PublishedComment[];
}

/** A comment's body with its author object (and its replies' authors) filled in. */
export type CommentBody<A> = Omit<PublishedComment, 'authorId' | 'replies'> & { author: A; replies: CommentBody<A>[] };

/** The reference's key order, with `author` where the original shows it. */
export function commentBody<A>(c: PublishedComment, authorOf: (userId: number) => A): CommentBody<A> {
  return {
    commentid: c.commentid,
    locale: c.locale,
    context: c.context,
    contextid: c.contextid,
    parentid: c.parentid,
    title: c.title,
    text_raw: c.text_raw,
    text_rendered: c.text_rendered,
    date: c.date,
    modified_date: c.modified_date,
    status: c.status,
    rating: c.rating,
    author: authorOf(c.authorId),
    replies: c.replies.map((r) => commentBody(r, authorOf)),
  };
}

/** Every author a list of threads shows (replies included), each once. */
export function commentAuthors(threads: readonly PublishedComment[]): number[] {
  const ids = new Set<number>();
  const visit = (c: PublishedComment) => {
    ids.add(c.authorId);
    c.replies.forEach(visit);
  };
  threads.forEach(visit);
  return [...ids];
}

/** The comment threads of some guides and steps, by guide id and by step id. */
export interface GuideThreads {
  readonly guides: ReadonlyMap<number, readonly PublishedComment[]>;
  readonly steps: ReadonlyMap<number, readonly PublishedComment[]>;
}

/**
 * The comments guide bodies show (`comments` of a guide and of each step), published by the
 * community context (its HTTP module provides it to every module). Threads come oldest first, each
 * top-level comment with its replies; a deleted comment shows only while it has live replies.
 */
export abstract class GuideDiscussions {
  /** The threads on these guides and steps, in one lookup whatever their number. */
  abstract threadsOf(targets: { readonly guideIds: readonly number[]; readonly stepIds: readonly number[] }): Promise<GuideThreads>;
}
