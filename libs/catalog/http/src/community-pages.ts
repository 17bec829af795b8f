import type { EntityManager } from '@mikro-orm/postgresql';
import { LIVE_WIKI_PAGE_SQL } from '@rc/catalog-infra-mikro-orm';
import { CommunityPages } from '@rc/community-contracts';

/** What the community context asks of wiki pages: whether comments have a live page to be on (by `wikiid`). */
export class PagesForCommunity extends CommunityPages {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async exists(wikiId: number): Promise<boolean> {
    return (await this.em.execute(LIVE_WIKI_PAGE_SQL, [wikiId])).length > 0;
  }
}
