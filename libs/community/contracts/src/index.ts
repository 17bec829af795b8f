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

// What comments and stories point at belongs to other contexts: the guides and media each publish an
// answer to one of these ports from their HTTP module (the community module imports those modules);
// wiki pages come from the catalog's published WikiDirectory.

/** Who reads: a signed-in user (an Admin or not), or `null` for anonymous readers. */
export interface CommunityViewer {
  readonly userId: number;
  readonly isAdmin: boolean;
}

/** Guides and their steps, as the guides context answers for comments and stories. */
export abstract class CommunityGuides {
  /** The live guide a guide id (or a step id: its owning guide) names, or `null`. */
  abstract guideOf(target: 'guide' | 'step', id: number): Promise<number | null>;
  /** Which of these guides are live, and which of those the viewer may see (the guides' own rule), in one lookup. */
  abstract visibility(guideIds: readonly number[], viewer: CommunityViewer | null): Promise<{ readonly existing: ReadonlySet<number>; readonly visible: ReadonlySet<number> }>;
  /**
   * The comments on a guide or its steps changed (inside the caller's unit of work): the bodies
   * kept of the guide, and of the guides that include it, must be built again.
   */
  abstract discussionChanged(guideId: number): Promise<void>;
  /** The GuideSummary (reference §3.4) of those of `ids` that are public and live, by id, in one lookup. */
  abstract publicSummaries(ids: readonly number[]): Promise<Map<number, object>>;
}

/** Images, as the media context answers for stories. */
export abstract class CommunityImages {
  /** The sizes (pixels) of those of `ids` that are live images owned by `ownerId`. */
  abstract ownedImageSizes(ownerId: number, ids: readonly number[]): Promise<Map<number, { readonly width: number; readonly height: number }>>;
}
