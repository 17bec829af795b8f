import { Module, type DynamicModule, type ModuleMetadata, type OnModuleInit, type Provider } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import {
  CreateWiki,
  DeleteWiki,
  EditWiki,
  RevertWiki,
  WikiHistory,
  CompareWikiRevisions,
  StaleWikiRevisionError,
  StaleWikiTranslationError,
  ReadWikiTranslation,
  TranslateWiki,
  WikiTranslationRepository,
  TagWiki,
  ViewWiki,
  WikiImages,
  WikiQueries,
  WikiRepository,
  WikiTags,
  type WikiDeps,
} from '@rc/catalog-domain';
import { MikroOrmPageTags, MikroOrmWikiQueries, MikroOrmWikiRepository, MikroOrmWikiTags, MikroOrmWikiTranslationRepository, MikroOrmWikiViewTally } from '@rc/catalog-infra-mikro-orm';
import { UserSummaries, type Caller } from '@rc/identity-contracts';
import { ConflictBodies, factory, KeptAnswers, LOGGER, type WikiRenderer } from '@rc/shared-http';
import type { Logger } from 'pino';
import { Clock, IntegrationEvents, UnitOfWork } from '@rc/shared-kernel';
import { PageTags, WikiDirectory } from '@rc/catalog-contracts';
import { CatalogController } from './catalog.controller.js';
import { WikiHistoryController } from './wiki-history.controller.js';
import { CatalogWikiDirectory } from './catalog-wiki-directory.js';
import { CategoryTreeBodies, CategoryTreeCache, keptTreeKey } from './category-tree-cache.js';
import { CategoryGuides, WikiReader } from './wiki-reader.js';
import { keptPageRoute, ShownWikiViews, WikiPageBodies, WikiViewCounter, WikiViewFlushing } from './wiki-views.js';
import { ContentStampReader, currentReadScope } from '@rc/shared-infra-mikro-orm';

const DEPS = Symbol('WikiDeps');
/**
 * The budget of the kept category trees (their bytes): both variants of a tree of some 50,000
 * categories. Their bytes are the tree cache's own buffer (CategoryTreeCache), so keeping them here
 * holds no second copy.
 */
const CATEGORY_TREE_BYTES = 8 * 1024 * 1024;

/** What the catalog module reads of the service's configuration, and the wiki renderer it shares. */
export interface CatalogSettings {
  readonly publicBaseUrl: string;
  readonly renderer: WikiRenderer;
  /** Category tree versions kept in memory: 1, or 2 when reads may go to a replica behind the primary. */
  readonly keptTreeVersions?: number;
  /** Seconds between the writes of the page views counted in memory. */
  readonly viewFlushSeconds: number;
  /** Seconds a page shows the same view count (see ShownWikiViews; 0: the stored total on every read). */
  readonly viewRefreshSeconds: number;
  /** Byte budget of the kept page bodies, in MiB (0: pages are built on every read; see WikiPageBodies). */
  readonly pageCacheMb: number;
}

/** How the app answers the catalog's CategoryGuides port: the modules it needs and the binding. */
export interface CategoryGuidesBinding {
  readonly imports: NonNullable<ModuleMetadata['imports']>;
  readonly provider: Provider;
}

/** The catalog context's HTTP adapter: categories and wiki pages; it provides the published WikiDirectory and PageTags to every module. */
@Module({})
export class CatalogApiModule implements OnModuleInit {
  constructor(
    private readonly conflicts: ConflictBodies,
    private readonly reader: WikiReader,
    private readonly view: ViewWiki,
    private readonly translations: ReadWikiTranslation,
  ) {}

  static register(settings: CatalogSettings, categoryGuides: CategoryGuidesBinding): DynamicModule {
    const em = (orm: MikroORM) => orm.em;
    return {
      module: CatalogApiModule,
      global: true,
      imports: categoryGuides.imports,
      controllers: [CatalogController, WikiHistoryController],
      providers: [
        factory(WikiRepository, (orm: MikroORM) => new MikroOrmWikiRepository(em(orm)), [MikroORM]),
        factory(WikiQueries, (orm: MikroORM) => new MikroOrmWikiQueries(em(orm)), [MikroORM]),
        factory(WikiTags, (orm: MikroORM) => new MikroOrmWikiTags(em(orm)), [MikroORM]),
        factory(WikiDirectory, (queries: WikiQueries) => new CatalogWikiDirectory(queries, settings.publicBaseUrl), [WikiQueries]),
        factory(PageTags, (orm: MikroORM) => new MikroOrmPageTags(em(orm)), [MikroORM]),
        factory(
          CategoryTreeCache,
          (orm: MikroORM, queries: WikiQueries) => {
            const versions = new MikroOrmWikiQueries(em(orm));
            return new CategoryTreeCache(
              () => versions.categoryTreeVersion(),
              () => queries.categoryTree(),
              settings.keptTreeVersions ?? 1,
            );
          },
          [MikroORM, WikiQueries],
        ),
        // WikiImages: bound by the application to the media context's published images.
        { provide: DEPS, inject: [WikiRepository, WikiImages, Clock, UnitOfWork, IntegrationEvents], useFactory: (wikis: WikiRepository, images: WikiImages, clock: Clock, uow: UnitOfWork, events: IntegrationEvents): WikiDeps => ({ wikis, images, clock, uow, events }) },
        ...[CreateWiki, EditWiki, DeleteWiki, RevertWiki].map((UseCase) => ({ provide: UseCase, inject: [DEPS], useFactory: (deps: WikiDeps) => new UseCase(deps) })),
        factory(ViewWiki, (w: WikiRepository) => new ViewWiki(w), [WikiRepository]),
        factory(WikiTranslationRepository, (orm: MikroORM) => new MikroOrmWikiTranslationRepository(em(orm)), [MikroORM]),
        { provide: TranslateWiki, inject: [DEPS, WikiTranslationRepository], useFactory: (deps: WikiDeps, t: WikiTranslationRepository) => new TranslateWiki(deps, t) },
        factory(ReadWikiTranslation, (t: WikiTranslationRepository) => new ReadWikiTranslation(t), [WikiTranslationRepository]),
        factory(WikiHistory, (w: WikiRepository) => new WikiHistory(w), [WikiRepository]),
        factory(CompareWikiRevisions, (w: WikiRepository) => new CompareWikiRevisions(w), [WikiRepository]),
        factory(TagWiki, (w: WikiRepository, t: WikiTags, c: Clock) => new TagWiki(w, t, c), [WikiRepository, WikiTags, Clock]),
        categoryGuides.provider,
        factory(WikiViewCounter, (orm: MikroORM) => new WikiViewCounter(new MikroOrmWikiViewTally(em(orm))), [MikroORM]),
        factory(WikiViewFlushing, (c: WikiViewCounter, logger: Logger) => new WikiViewFlushing(c, settings.viewFlushSeconds * 1000, logger, 'wikis'), [WikiViewCounter, LOGGER]),
        factory(ShownWikiViews, () => new ShownWikiViews(settings.viewRefreshSeconds * 1000), []),
        factory(
          WikiPageBodies,
          (kept: KeptAnswers, shown: ShownWikiViews, views: WikiViewCounter) => {
            const bodies = new WikiPageBodies(settings.pageCacheMb * 1024 * 1024);
            kept.register(keptPageRoute(bodies, shown, views));
            return bodies;
          },
          [KeptAnswers, ShownWikiViews, WikiViewCounter],
        ),
        factory(ContentStampReader, (orm: MikroORM) => new ContentStampReader(em(orm)), [MikroORM]),
        factory(
          CategoryTreeBodies,
          (kept: KeptAnswers) => {
            const bodies = new CategoryTreeBodies(settings.pageCacheMb > 0 ? CATEGORY_TREE_BYTES : 0);
            kept.register({ route: '/categories', bodies, key: keptTreeKey });
            return bodies;
          },
          [KeptAnswers],
        ),
        factory(
          WikiReader,
          (v: ViewWiki, q: WikiQueries, g: CategoryGuides, u: UserSummaries, i: WikiImages, tr: ReadWikiTranslation, s: ShownWikiViews) =>
            // Page builds share their user and image lookups only with builds reading the same server.
            new WikiReader(v, q, g, settings.renderer, settings, u, i, tr, s, () => currentReadScope()?.replica ?? null),
          [ViewWiki, WikiQueries, CategoryGuides, UserSummaries, WikiImages, ReadWikiTranslation, ShownWikiViews],
        ),
      ],
      exports: [WikiReader, WikiDirectory, PageTags, TranslateWiki, WikiViewFlushing],
    };
  }

  /** A stale revision answers with the current page (in the write's language, for a translation's). */
  onModuleInit(): void {
    this.conflicts.register(async (error, req) => {
      if (!(error instanceof StaleWikiRevisionError) && !(error instanceof StaleWikiTranslationError)) return undefined;
      const page = await this.view.execute({ namespace: error.namespace as 'CATEGORY', title: error.title });
      const shown = error instanceof StaleWikiTranslationError ? await this.translations.execute(page, error.langid) : page;
      return this.reader.present(shown, (req.principal as Caller | undefined) ?? null);
    });
  }
}

