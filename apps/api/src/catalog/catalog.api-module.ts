import { Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import {
  CreateWiki,
  DeleteWiki,
  EditWiki,
  RevertWiki,
  StaleWikiRevisionError,
  TagWiki,
  ViewWiki,
  WikiQueries,
  WikiRepository,
  WikiTags,
  type WikiDeps,
} from '@rc/catalog-domain';
import { MikroOrmWikiQueries, MikroOrmWikiRepository, MikroOrmWikiTags } from '@rc/catalog-infra-mikro-orm';
import { GuideQueries } from '@rc/guides-domain';
import { GetUsers } from '@rc/identity-domain';
import { Clock, UnitOfWork } from '@rc/shared-kernel';
import type { AppConfig } from '../config/config.js';
import { APP_CONFIG, factory } from '../core.module.js';
import { ConflictBodies } from '../http/conflict-bodies.js';
import type { WikiRenderer } from '../guides/guide.presenter.js';
import { GuideReader } from '../guides/guide-reader.js';
import { WIKI_RENDERER } from '../guides/guides.api-module.js';
import { UserStandings } from '../people/user-standings.js';
import { CatalogController } from './catalog.controller.js';
import { CategoryTreeCache } from './category-tree-cache.js';
import { WikiReader, type CategoryGuides } from './wiki-reader.js';

const DEPS = Symbol('WikiDeps');
const CATEGORY_GUIDES = Symbol('CategoryGuides');

/** The catalog context's HTTP adapter: categories and wiki pages. */
@Module({})
export class CatalogApiModule implements OnModuleInit {
  constructor(
    private readonly conflicts: ConflictBodies,
    private readonly reader: WikiReader,
    private readonly view: ViewWiki,
  ) {}

  static register(guides: DynamicModule): DynamicModule {
    const em = (orm: MikroORM) => orm.em;
    return {
      module: CatalogApiModule,
      imports: [guides],
      controllers: [CatalogController],
      providers: [
        factory(WikiRepository, (orm: MikroORM) => new MikroOrmWikiRepository(em(orm)), [MikroORM]),
        factory(WikiQueries, (orm: MikroORM) => new MikroOrmWikiQueries(em(orm)), [MikroORM]),
        factory(WikiTags, (orm: MikroORM) => new MikroOrmWikiTags(em(orm)), [MikroORM]),
        factory(
          CategoryTreeCache,
          (orm: MikroORM, queries: WikiQueries) => {
            const versions = new MikroOrmWikiQueries(em(orm));
            return new CategoryTreeCache(
              () => versions.categoryTreeVersion(),
              () => queries.categoryTree(),
            );
          },
          [MikroORM, WikiQueries],
        ),
        { provide: DEPS, inject: [WikiRepository, Clock, UnitOfWork], useFactory: (wikis: WikiRepository, clock: Clock, uow: UnitOfWork): WikiDeps => ({ wikis, clock, uow }) },
        ...[CreateWiki, EditWiki, DeleteWiki, RevertWiki].map((UseCase) => ({ provide: UseCase, inject: [DEPS], useFactory: (deps: WikiDeps) => new UseCase(deps) })),
        factory(ViewWiki, (w: WikiRepository) => new ViewWiki(w), [WikiRepository]),
        factory(TagWiki, (w: WikiRepository, t: WikiTags, c: Clock) => new TagWiki(w, t, c), [WikiRepository, WikiTags, Clock]),
        {
          provide: CATEGORY_GUIDES,
          inject: [GuideQueries],
          useFactory: (queries: GuideQueries): CategoryGuides => ({
            inCategory: (title, featuredOnly) => queries.list({ order: 'ASC', category: title, withPrerequisiteOnly: true, ...(featuredOnly ? { flag: 'GUIDE_STARRED' } : {}) }, { limit: 200, offset: 0 }),
            items: (title) => queries.categoryItems(title),
            categoriesWithPublicGuides: () => queries.categoriesWithPublicGuides(),
          }),
        },
        factory(
          WikiReader,
          (v: ViewWiki, q: WikiQueries, t: WikiTags, g: CategoryGuides, r: GuideReader, w: WikiRenderer, c: AppConfig, u: GetUsers, s: UserStandings) => new WikiReader(v, q, t, g, r, w, c, u, s),
          [ViewWiki, WikiQueries, WikiTags, CATEGORY_GUIDES, GuideReader, WIKI_RENDERER, APP_CONFIG, GetUsers, UserStandings],
        ),
      ],
    };
  }

  /** A stale revision answers with the current page. */
  onModuleInit(): void {
    this.conflicts.register(async (error, req) => {
      if (!(error instanceof StaleWikiRevisionError)) return undefined;
      const page = await this.view.execute({ namespace: error.namespace as 'CATEGORY', title: error.title });
      return this.reader.present(page, req.principal ?? null);
    });
  }
}

