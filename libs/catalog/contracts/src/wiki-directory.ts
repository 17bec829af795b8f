/** A live wiki page as other contexts name it: its id, how it is shown, where it is. */
export interface WikiListing {
  readonly wikiid: number;
  readonly namespace: string;
  readonly title: string;
  readonly displayTitle: string;
  /** The page's public URL. */
  readonly url: string;
}

/**
 * What the catalog publishes about its pages to the other contexts (the Nest token; the catalog's
 * module provides it to the whole application).
 */
export abstract class WikiDirectory {
  /** The live pages among `ids`, by id (unknown and deleted ones are absent): one query. */
  abstract byIds(ids: readonly number[]): Promise<Map<number, WikiListing>>;
}

/** A tag and when it was first given (to any live page, or any public guide). */
export interface TagUse {
  readonly tag: string;
  readonly firstUsedAt: Date;
}

/** The tags of the catalog's live pages, published for the site-wide tag list. */
export abstract class PageTags {
  /** Every tag of a live page, each once, with its first use: one query. */
  abstract firstUses(): Promise<TagUse[]>;
}
