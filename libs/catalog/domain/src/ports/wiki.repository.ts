import type { Namespace, WikiId, WikiPage, WikiRef, WikiState } from '../model/wiki-page.js';

/** One stored revision of a page, as its history lists it. */
export interface WikiRevisionEntry {
  readonly revisionid: number;
  readonly date: Date;
  readonly editorId: number;
  readonly summaryOfChange: string | null;
  readonly langid: string;
}

export abstract class WikiRepository {
  abstract nextId(): Promise<WikiId>;
  /** A live or deleted page by namespace and title; `forUpdate` locks it until the unit of work ends. */
  abstract findByTitle(namespace: Namespace, title: string, forUpdate?: boolean): Promise<WikiPage | null>;
  /** Stores the changes under a new revision id and keeps a snapshot of it; no-op when unchanged. */
  abstract save(page: WikiPage): Promise<void>;
  abstract snapshot(id: WikiId, revisionid: number): Promise<WikiState | null>;
  /** The stored revisions of a page, newest first, paged (one query). */
  abstract revisions(id: WikiId, page: { readonly limit: number; readonly offset: number }): Promise<WikiRevisionEntry[]>;
  /**
   * The id of a live CATEGORY page with this title, or `null`. Inside a unit of work the page is
   * share-locked: it cannot be deleted before the work that hangs something under it commits.
   */
  abstract categoryId(title: string): Promise<number | null>;
  /** Whether `candidateParent` is `id` itself or one of its descendants (a move there would loop). */
  abstract isInSubtree(id: WikiId, candidateParent: number): Promise<boolean>;
  abstract liveChildren(id: WikiId): Promise<number>;
  /** Those of `refs` that name a live page (one query, whatever their number). */
  abstract existing(refs: readonly WikiRef[]): Promise<WikiRef[]>;
}

export abstract class WikiTags {
  abstract list(id: WikiId): Promise<string[]>;
  abstract add(id: WikiId, tag: string, at: Date): Promise<boolean>;
  abstract remove(id: WikiId, tag: string): Promise<boolean>;
}
