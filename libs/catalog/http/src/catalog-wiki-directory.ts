import { WikiDirectory, type WikiListing } from '@rc/catalog-contracts';
import type { WikiQueries } from '@rc/catalog-domain';
import { wikiUrl } from './wiki.presenter.js';

/** The catalog's published WikiDirectory, over its queries. */
export class CatalogWikiDirectory extends WikiDirectory {
  constructor(
    private readonly queries: WikiQueries,
    private readonly baseUrl: string,
  ) {
    super();
  }

  async byIds(ids: readonly number[]): Promise<Map<number, WikiListing>> {
    const pages = await this.queries.byIds(ids);
    return new Map(pages.map((p) => [p.id, { wikiid: p.id, namespace: p.namespace, title: p.title, displayTitle: p.displayTitle, url: wikiUrl(p.namespace, p.title, this.baseUrl) }]));
  }
}
