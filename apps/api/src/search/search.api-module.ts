import { Module, type DynamicModule } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { GuideQueries } from '@rc/guides-domain';
import type { AppConfig } from '../config/config.js';
import { APP_CONFIG, factory, KeptAnswers } from '../core.module.js';
import { GuideReader } from '@rc/guides-http';
import { ContentStampReader } from '@rc/shared-infra-mikro-orm';
import { SearchAnswers, SearchController } from './search.controller.js';
import { SearchFreshness } from './search-freshness.js';
import { KEPT_PAGE_MS, SearchImages, SiteSearch } from './site-search.js';
import { WikiSearch } from './wiki-search.js';

/** `/search` and `/suggest`: guides through the guides module's queries and reader, wiki pages through their own SQL adapter. */
@Module({})
export class SearchApiModule {
  /** `guides`: the registered guides module, whose GuideQueries and GuideReader this one uses. */
  static register(guides: DynamicModule): DynamicModule {
    return {
      module: SearchApiModule,
      imports: [guides],
      controllers: [SearchController],
      providers: [
        factory(WikiSearch, (orm: MikroORM) => new WikiSearch(orm.em), [MikroORM]),
        factory(SearchAnswers, (c: AppConfig, k: KeptAnswers) => k.byUrl(new SearchAnswers(c.pageCacheMb * 1024 * 1024, KEPT_PAGE_MS), '/search/:query', '/suggest/:query'), [APP_CONFIG, KeptAnswers]),
        factory(ContentStampReader, (orm: MikroORM) => new ContentStampReader(orm.em), [MikroORM]),
        factory(SearchFreshness, (orm: MikroORM) => new SearchFreshness(orm.em), [MikroORM]),
        factory(
          SiteSearch,
          (q: GuideQueries, r: GuideReader, w: WikiSearch, c: AppConfig, f: SearchFreshness, i: SearchImages) => new SiteSearch(q, r, w, c, f, i),
          [GuideQueries, GuideReader, WikiSearch, APP_CONFIG, SearchFreshness, SearchImages],
        ),
      ],
    };
  }
}
