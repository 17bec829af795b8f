import type { Page } from '@rc/shared-kernel';
import type { MaintenanceSchedule } from '../model/wiki-details.js';
import type { Namespace, WikiRef } from '../model/wiki-page.js';

/** A page as lists show it (WikiSummary, reference §3.10): a read model. */
export interface WikiSummaryView {
  readonly id: number;
  readonly namespace: Namespace;
  readonly title: string;
  readonly displayTitle: string;
  readonly description: string;
  readonly modifiedAt: Date;
  readonly langid: string;
  readonly authorId: number;
  readonly imageId: number | null;
  readonly revisionid: number;
}

export interface CategoryNode {
  readonly id: number;
  readonly title: string;
  readonly displayTitle: string;
  readonly parentId: number | null;
}

/** Someone who saved revisions of a page. */
export interface WikiContributor {
  readonly userId: number;
  /** How many of the page's revisions (up to the one read) they saved. */
  readonly revisions: number;
  /** Their first revision of the page. */
  readonly firstRevisionid: number;
}

/** The maintenance schedules a category shows, and the page they come from. */
export interface MaintenanceView {
  readonly title: string;
  readonly revisionid: number;
  readonly schedules: readonly MaintenanceSchedule[];
}

/** A deleted page: what a copy made before `removedAt` must remove. Title and parent as they were then. */
export interface WikiTombstoneView {
  readonly id: number;
  readonly namespace: Namespace;
  readonly title: string;
  readonly parentId: number | null;
  readonly removedAt: Date;
}

/** What a page's body shows besides the page itself (see WikiQueries.parts). */
export interface WikiPageParts {
  /** CATEGORY pages: closest first (as `ancestors`); none for other namespaces. */
  readonly ancestors: WikiSummaryView[];
  /** CATEGORY pages: as `children`; none for other namespaces. */
  readonly children: WikiSummaryView[];
  /** Alphabetical (as WikiTags.list). */
  readonly tags: string[];
  /** The live pages among its related pages, in their order (as `byRefs`). */
  readonly related: WikiSummaryView[];
  /** Up to the revision read (as `contributors`). */
  readonly contributors: WikiContributor[];
  /** As stored (as `views`). */
  readonly views: number;
}

/** Which page `parts` reads for, and up to which of its revisions. */
export interface WikiPartsOf {
  readonly id: number;
  readonly namespace: Namespace;
  readonly revisionid: number;
  readonly related: readonly WikiRef[];
}

/** Reads for pages and the category tree; each method is one query. Deleted pages never appear. */
export abstract class WikiQueries {
  /** Every live category with its parent: the whole tree in one query. */
  abstract categoryTree(): Promise<CategoryNode[]>;
  /** Ordered by title; with `modifiedSince`, only pages changed since, newest first. */
  abstract list(namespace: Namespace, page: Page, options: { modifiedSince?: Date; leavesOnly?: boolean }): Promise<WikiSummaryView[]>;
  /** Closest first. */
  abstract ancestors(id: number): Promise<WikiSummaryView[]>;
  abstract children(id: number): Promise<WikiSummaryView[]>;
  /** The live pages among `refs`, in the order of `refs` (related pages; deleted or unknown ones drop out). */
  abstract byRefs(refs: readonly WikiRef[]): Promise<WikiSummaryView[]>;
  /** The live pages among `ids` (any order; unknown and deleted ones drop out). */
  abstract byIds(ids: readonly number[]): Promise<WikiSummaryView[]>;
  /**
   * The distinct editors of a page's revisions up to `upToRevisionid`: the creator (the editor of
   * the first revision) first, then by number of revisions, most first, then by first revision.
   */
  abstract contributors(id: number, upToRevisionid: number): Promise<WikiContributor[]>;
  /**
   * Everything a page's body shows besides the page, in one query: what `ancestors` and `children`
   * (CATEGORY pages only), the tags, `byRefs` of its related pages, `contributors` up to the
   * revision read and `views` answer, each as that method does.
   */
  abstract parts(page: WikiPartsOf): Promise<WikiPageParts>;
  /** How many times the page was viewed, as stored (views are added in batches: see ViewCounter). */
  abstract views(id: number): Promise<number>;
  /**
   * The maintenance schedules of a page or, when it has none, of its closest live ancestor that has
   * some; null when none of them has any.
   */
  abstract maintenance(id: number): Promise<MaintenanceView | null>;
  /** Pages of the namespace deleted at or after `since` and not live again, newest first (as `list` with `modifiedSince`). */
  abstract removedSince(namespace: Namespace, since: Date, page: Page): Promise<WikiTombstoneView[]>;
}
