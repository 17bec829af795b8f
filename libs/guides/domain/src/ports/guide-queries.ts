import type { Page } from '@rc/shared-kernel';
import type { Difficulty, GuideType } from '../model/guide-vocabulary.js';

/** A guide as lists show it (reference §3.4): a read model, not the aggregate. */
export interface GuideSummaryView {
  readonly guideid: number;
  readonly locale: string;
  readonly revisionid: number;
  readonly modifiedAt: Date;
  readonly prereqModifiedAt: Date | null;
  readonly type: GuideType;
  readonly category: string;
  readonly subject: string;
  readonly title: string;
  readonly summary: string;
  readonly difficulty: Difficulty | null;
  readonly timeRequiredMax: number;
  readonly isPublic: boolean;
  readonly authorId: number;
  readonly flags: readonly string[];
  readonly imageId: number | null;
}

/**
 * The orders of `GET /guides?order=` besides the original's ASC and DESC (by guide id): most
 * popular first (views, favourites and completions together: see `guide_stats.popularity`), most
 * viewed, most favourited, newest (most recently created). Ties: the newer guide first.
 */
export const GUIDE_SORTS = ['popular', 'views', 'favorites', 'newest'] as const;
export type GuideSort = (typeof GUIDE_SORTS)[number];

export interface GuideListFilter {
  /** Only these types (unknown types match nothing). */
  readonly types?: readonly string[];
  readonly order: 'ASC' | 'DESC';
  /** Ordered by this instead of by id (`order` then does not apply). */
  readonly sort?: GuideSort;
  /** Only guides modified at or after this time. */
  readonly modifiedSince?: Date;
  /** Only guides carrying this flag. */
  readonly flag?: string;
  /** Only guides of this category (title). */
  readonly category?: string;
  /**
   * `true`: guides flagged GUIDE_PREREQ_ONLY are listed too (a category page shows every guide of
   * its device). Public lists (`GET /guides`, a user's guides, favorites) leave them out, as the
   * original API does; they stay readable by id.
   */
  readonly withPrerequisiteOnly?: boolean;
}

/**
 * A guide that was public and no longer is (deleted, or made private): what a copy made before
 * `removedAt` must remove. Title and category as they were then.
 */
export interface GuideTombstoneView {
  readonly guideid: number;
  readonly title: string;
  readonly category: string;
  readonly reason: 'deleted' | 'private';
  readonly removedAt: Date;
}

/**
 * Reads for lists. Every method answers in a constant number of queries, whatever the page size,
 * and never returns deleted guides; private ones only where the method says so.
 */
export abstract class GuideQueries {
  abstract list(filter: GuideListFilter, page: Page): Promise<GuideSummaryView[]>;
  /** Public guides among these ids, in the given order. */
  abstract byIds(ids: readonly number[]): Promise<GuideSummaryView[]>;
  /** Any guides among these ids (prerequisites of a guide the viewer may see), in the given order. */
  abstract byIdsIncludingPrivate(ids: readonly number[]): Promise<GuideSummaryView[]>;
  /**
   * A user's guides. `own`: the user is asking for their own list, private and prerequisite-only
   * guides included; otherwise public guides only, prerequisite-only ones left out.
   */
  abstract byAuthor(authorId: number, page: Page, order: 'ASC' | 'DESC', own: boolean): Promise<GuideSummaryView[]>;
  /**
   * Guides a user marked. `own`: the user's own list, which also holds private guides they may see
   * (their own, or any for an Admin); otherwise public guides only, prerequisite-only ones left out.
   */
  abstract marked(kind: 'favorite' | 'completion', userId: number, page: Page, own: { isAdmin: boolean } | null): Promise<{ date: Date; guide: GuideSummaryView }[]>;
  /** Which of these guides the user has marked. */
  abstract marksOf(userId: number, guideIds: readonly number[]): Promise<{ favorited: Set<number>; completed: Set<number> }>;
  abstract tags(guideId: number): Promise<string[]>;
  /**
   * Full-text search over public guides: title, summary, introduction, subject, category and step
   * text, best match first (ties by id). `query` is free text in web-search syntax (`"exact
   * phrase"`, `or`, `-word`); any text is accepted and one that means nothing matches nothing.
   * `types`: only guides of these types (unknown types match nothing). `total` counts every match.
   */
  abstract search(query: string, page: Page, types?: readonly string[]): Promise<GuideSearchResult>;
  /**
   * Public guides holding words that start with each word of `query` (type-ahead), best first,
   * and how many guides hold them in their head (title, summary, introduction, subject, category).
   */
  abstract suggest(query: string, limit: number): Promise<GuideSuggestions>;
  /**
   * Full-text search over the translations into `langid` of public guides (translated title,
   * summary, introduction, subject and step text, in that language's text-search configuration),
   * best first (ties by id); the summaries show the translated texts (the source's where
   * untranslated), the translation's revision and `locale` = `langid`.
   */
  abstract searchTranslations(langid: string, query: string, page: Page, types?: readonly string[]): Promise<GuideSearchResult>;
  /** Type-ahead over the translations into `langid` of public guides, as `suggest` over their guides. */
  abstract suggestTranslations(langid: string, query: string, limit: number): Promise<GuideSuggestions>;
  /**
   * The parts and the tools of a category's public guides (those whose category is exactly this
   * title), each item once: one query for both lists. See CategoryItemView for how items merge.
   */
  abstract categoryItems(category: string): Promise<CategoryItems>;
  /**
   * What a category's page shows of its guides, in one query: its first `limit` public guides in
   * id order, prerequisite-only ones included (as `list` with `category`, `withPrerequisiteOnly`
   * and order ASC), and `categoryItems`.
   */
  abstract categoryGuides(category: string, limit: number): Promise<{ readonly guides: GuideSummaryView[]; readonly items: CategoryItems }>;
  /** The titles of the categories that hold at least one public guide, in one query. */
  abstract categoriesWithPublicGuides(): Promise<string[]>;
  /** Guides hidden (deleted or made private) at or after `since` and not public again, in id order. */
  abstract removedSince(since: Date, page: Page): Promise<GuideTombstoneView[]>;
}

/**
 * A part or tool as a category lists it: the items of the category's public guides merged by name
 * (case and runs of white space ignored). In guide id order, then the guide's own item order, the
 * first spelling of the name wins, and so do the first non-empty `type`, `url` and `thumbnail`;
 * `quantity` is the most any one guide needs; `isoptional` holds only when every guide listing the
 * item marks it optional; `featured` when any guide features it. Guide-specific notes are not kept.
 */
export interface CategoryItemView {
  readonly text: string;
  readonly type: string;
  readonly quantity: number;
  readonly url: string | null;
  readonly thumbnail: string | null;
  readonly isoptional: boolean;
  readonly featured: boolean;
  /** How many of the category's public guides list the item. */
  readonly guides: number;
}

/** Both lists are ordered by the number of guides listing the item, most first, then by name. */
export interface CategoryItems {
  readonly parts: CategoryItemView[];
  readonly tools: CategoryItemView[];
}

/** A page of search hits and the number of all hits. `rank`: relevance, comparable across one query's hits. */
export interface GuideSuggestions {
  readonly results: GuideSummaryView[];
  /** Guides whose head holds the prefixes (the results may add some matching only in their steps). */
  readonly matches: number;
  /** When the ranking (ms since the epoch) was computed, when it was kept from an earlier query; absent: computed for this one. */
  readonly rankedAt?: number;
}

export interface GuideSearchResult {
  readonly total: number;
  readonly results: (GuideSummaryView & { readonly rank: number })[];
  /** When the order and total (ms since the epoch) were computed, when kept from an earlier query; absent: computed for this one. */
  readonly rankedAt?: number;
}
