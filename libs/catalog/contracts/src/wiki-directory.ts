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
