import { Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { ContentStampReader, onPrimary } from '@rc/shared-infra-mikro-orm';
import {
  AddStep,
  CategoryDirectory,
  GuideDocuments,
  GuideImages,
  ChangeGuideAccess,
  GuideHistory,
  RevertGuide,
  TeamDirectory,
  ViewGuideAccess,
  CreateGuide,
  DeleteGuide,
  EditGuide,
  EditStep,
  GuideEventOutbox,
  GuideMarks,
  GuideQueries,
  GuideRepository,
  GuideTags,
  MarkGuide,
  RemoveStep,
  ReorderSteps,
  SetGuidePublic,
  ReadGuideTranslation,
  StaleGuideRevisionError,
  StaleGuideTranslationError,
  StaleStepRevisionError,
  GuideTranslationRepository,
  TranslateGuide,
  TranslateStep,
  TagGuide,
  ViewGuide,
  type GuideId,
  type GuideWriteDeps,
} from '@rc/guides-domain';
import {
  CatalogCategoryDirectory,
  MikroOrmGuideEventOutbox,
  MikroOrmGuideMarks,
  MikroOrmGuideQueries,
  MikroOrmGuideRepository,
  MikroOrmGuideTagUses,
  MikroOrmGuideTags,
  MikroOrmGuideTranslationRepository,
  MikroOrmGuideViewTally,
} from '@rc/guides-infra-mikro-orm';
import { CommunityGuides, GuideDiscussions } from '@rc/community-contracts';
import { UserSummaries, type Caller } from '@rc/identity-contracts';
import { Clock, IntegrationEvents, UnitOfWork } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import { ConflictBodies, factory, KeptAnswers, LOGGER, ViewWindows } from '@rc/shared-http';
import { GuideReader } from './guide-reader.js';
import { GuidesForCommunity } from './community-guides.js';
import { GuideBodyCache } from './guide-body-cache.js';
import { PublicGuideBodies } from './public-guide-bodies.js';
import { PgGuideBodyStore } from './guide-body-store.js';
import { guideBodyFormat } from './guide-body-template.js';
import { GuideBodyBuilder } from './guide-body-builder.js';
import { UserPartsCache } from './user-parts.js';
import { GuideVersionLookup, GuideVersionWatch } from './guide-version-source.js';
import { GuideVersions } from './guide-versions.js';
import { GuideViewCounter, GuideViewFlushing } from './guide-views.js';
import type { WikiRenderer } from './guide.presenter.js';
import { GuidesController } from './guides.controller.js';
import { GuideHistoryController } from './guide-history.controller.js';
import { UserGuidesController } from './user-guides.controller.js';
import { SiteController, SiteSettings } from './site.controller.js';
import { TagsController } from './tags.controller.js';
import { GuideListBodies } from './guide-list-bodies.js';

const WRITE_DEPS = Symbol('GuideWriteDeps');

/** What the guides module reads of the service's configuration, and what the app hands it. */
export interface GuidesSettings {
  readonly publicBaseUrl: string;
  /** The wiki renderer (shared with the catalog: one memo of rendered texts). */
  readonly renderer: WikiRenderer;
  /** The database in use: guide versions are looked up and listened to on connections of their own. */
  readonly databaseUrl: string;
  /** Whether anyone may register (shown by the site's settings). */
  readonly publicRegistration: boolean;
  /** Byte budget of the cache of anonymous guide bodies, in MiB (0: no cache). */
  readonly guideCacheMb: number;
  /** How long a cached guide body may show its authors' older reputation or names. */
  readonly guideCacheMaxAgeSeconds: number;
  /** How cached guide bodies stay coherent with the database across instances (see GuideVersions). */
  readonly guideCacheCoherence: 'notify' | 'lookup';
  /** Seconds between the writes of the views counted in memory (each instance counts its own). */
  readonly viewFlushSeconds: number;
  /** How long a kept guide body shows its view count before a newer stored one replaces it. */
  readonly viewRefreshSeconds: number;
  /** Byte budget of the kept list bodies, in MiB (0: lists are built on every read; see GuideListBodies). */
  readonly listCacheMb: number;
}

type DepsUseCase = new (deps: GuideWriteDeps) => unknown;
const writeUseCases: DepsUseCase[] = [CreateGuide, EditGuide, SetGuidePublic, DeleteGuide, AddStep, EditStep, RemoveStep, ReorderSteps, RevertGuide];

/** The guides context's HTTP adapter. */
@Module({})
export class GuidesApiModule implements OnModuleInit {
  constructor(
    private readonly conflicts: ConflictBodies,
    private readonly reader: GuideReader,
  ) {}

  static register(settings: GuidesSettings): DynamicModule {
    const em = (orm: MikroORM) => orm.em;
    return {
      module: GuidesApiModule,
      // The app provides TeamDirectory (guides-domain) and GuideTeamBodies: the teams context answers them.
      controllers: [GuidesController, GuideHistoryController, UserGuidesController, SiteController, TagsController],
      providers: [
        { provide: SiteSettings, useValue: { publicBaseUrl: settings.publicBaseUrl, publicRegistration: settings.publicRegistration } },
        factory(GuideRepository, (orm: MikroORM) => new MikroOrmGuideRepository(em(orm)), [MikroORM]),
        factory(MikroOrmGuideTagUses, (orm: MikroORM) => new MikroOrmGuideTagUses(em(orm)), [MikroORM]),
        factory(GuideQueries, (orm: MikroORM) => new MikroOrmGuideQueries(em(orm)), [MikroORM]),
        factory(GuideMarks, (orm: MikroORM) => new MikroOrmGuideMarks(em(orm)), [MikroORM]),
        factory(GuideTags, (orm: MikroORM) => new MikroOrmGuideTags(em(orm)), [MikroORM]),
        factory(GuideEventOutbox, (orm: MikroORM) => new MikroOrmGuideEventOutbox(em(orm)), [MikroORM]),
        factory(CategoryDirectory, (orm: MikroORM) => new CatalogCategoryDirectory(em(orm)), [MikroORM]),
        {
          provide: WRITE_DEPS,
          // GuideImages: bound by the application to the media context's published images.
          // GuideDocuments: bound by the application to the media context's published documents.
          inject: [GuideRepository, CategoryDirectory, GuideImages, GuideEventOutbox, IntegrationEvents, Clock, UnitOfWork, TeamDirectory, { token: GuideDocuments, optional: true }],
          useFactory: (
            guides: GuideRepository,
            categories: CategoryDirectory,
            images: GuideImages,
            outbox: GuideEventOutbox,
            events: IntegrationEvents,
            clock: Clock,
            uow: UnitOfWork,
            teams: TeamDirectory,
            documents: GuideDocuments | undefined,
          ): GuideWriteDeps => ({
            guides,
            categories,
            images,
            documents,
            outbox,
            events,
            clock,
            uow,
            teams,
          }),
        },
        ...writeUseCases.map((UseCase) => ({ provide: UseCase, inject: [WRITE_DEPS], useFactory: (deps: GuideWriteDeps) => new UseCase(deps) })),
        factory(GuideTranslationRepository, (orm: MikroORM) => new MikroOrmGuideTranslationRepository(em(orm)), [MikroORM]),
        { provide: TranslateGuide, inject: [WRITE_DEPS, GuideTranslationRepository], useFactory: (deps: GuideWriteDeps, t: GuideTranslationRepository) => new TranslateGuide(deps, t) },
        { provide: TranslateStep, inject: [WRITE_DEPS, GuideTranslationRepository], useFactory: (deps: GuideWriteDeps, t: GuideTranslationRepository) => new TranslateStep(deps, t) },
        factory(ReadGuideTranslation, (t: GuideTranslationRepository) => new ReadGuideTranslation(t), [GuideTranslationRepository]),
        factory(ViewGuide, (g: GuideRepository, t: TeamDirectory) => new ViewGuide(g, t), [GuideRepository, TeamDirectory]),
        factory(GuideHistory, (v: ViewGuide, g: GuideRepository) => new GuideHistory(v, g), [ViewGuide, GuideRepository]),
        factory(ViewGuideAccess, (v: ViewGuide) => new ViewGuideAccess(v), [ViewGuide]),
        factory(ChangeGuideAccess, (g: GuideRepository, t: TeamDirectory, w: UnitOfWork) => new ChangeGuideAccess(g, t, w), [GuideRepository, TeamDirectory, UnitOfWork]),
        factory(
          MarkGuide,
          (g: GuideRepository, m: GuideMarks, o: GuideEventOutbox, c: Clock, w: UnitOfWork, t: TeamDirectory) => new MarkGuide(g, m, o, c, w, t),
          [GuideRepository, GuideMarks, GuideEventOutbox, Clock, UnitOfWork, TeamDirectory],
        ),
        factory(TagGuide, (g: GuideRepository, t: GuideTags, c: Clock) => new TagGuide(g, t, c), [GuideRepository, GuideTags, Clock]),
        factory(
          GuideReader,
          (v: ViewGuide, g: GuideRepository, q: GuideQueries, u: UserSummaries, i: GuideImages, d: GuideDiscussions | undefined, docs: GuideDocuments | undefined, t: ReadGuideTranslation) =>
            new GuideReader(v, g, q, u, settings.renderer, settings, i, d ?? null, docs ?? null, t),
          [ViewGuide, GuideRepository, GuideQueries, UserSummaries, GuideImages, { token: GuideDiscussions, optional: true }, { token: GuideDocuments, optional: true }, ReadGuideTranslation],
        ),
        factory(
          CommunityGuides,
          (orm: MikroORM, q: GuideQueries, r: GuideReader, t: TeamDirectory) => new GuidesForCommunity(em(orm), q, r, t),
          [MikroORM, GuideQueries, GuideReader, TeamDirectory],
        ),
        // Served ahead of Express too when kept (see KeptAnswers): the routes keep them by URL.
        factory(GuideListBodies, (kept: KeptAnswers) => kept.byUrl(new GuideListBodies(settings.listCacheMb * 1024 * 1024), '/guides', '/guides/featured'), [KeptAnswers]),
        factory(ContentStampReader, (orm: MikroORM) => new ContentStampReader(em(orm)), [MikroORM]),
        factory(GuideViewCounter, (orm: MikroORM) => new GuideViewCounter(new MikroOrmGuideViewTally(em(orm))), [MikroORM]),
        factory(GuideViewFlushing, (c: GuideViewCounter, logger: Logger) => new GuideViewFlushing(c, settings.viewFlushSeconds * 1000, logger, 'guides'), [GuideViewCounter, LOGGER]),
        factory(GuideVersionLookup, () => new GuideVersionLookup(settings.databaseUrl), []),
        factory(GuideVersions, (l: GuideVersionLookup) => new GuideVersions(l, { coherence: settings.guideCacheCoherence }), [GuideVersionLookup]),
        factory(
          GuideVersionWatch,
          (v: GuideVersions, l: GuideVersionLookup, logger: Logger) => new GuideVersionWatch(v, l, settings.databaseUrl, logger),
          [GuideVersions, GuideVersionLookup, LOGGER],
        ),
        factory(PgGuideBodyStore, (l: GuideVersionLookup) => new PgGuideBodyStore(l.queryable, guideBodyFormat(settings.publicBaseUrl)), [GuideVersionLookup]),
        factory(
          GuideBodyBuilder,
          (orm: MikroORM, l: GuideVersionLookup, reader: GuideReader, store: PgGuideBodyStore) => new GuideBodyBuilder({ orm, pool: l.queryable, reader, store }),
          [MikroORM, GuideVersionLookup, GuideReader, PgGuideBodyStore],
        ),
        factory(
          PublicGuideBodies,
          (r: GuideReader, v: GuideVersions, store: PgGuideBodyStore, logger: Logger, orm: MikroORM, views: GuideViewCounter) => {
            const cache = new GuideBodyCache({ maxBytes: settings.guideCacheMb * 1024 * 1024, maxAgeMs: settings.guideCacheMaxAgeSeconds * 1000 });
            // On the primary even for a request reading a replica: the bodies and user parts kept are
            // shared by every client, and kept coherent with the primary's announcements.
            const inContext = <T>(work: () => Promise<T>) => onPrimary(() => RequestContext.create(orm.em, work));
            const users = new UserPartsCache((ids) => inContext(() => r.userParts(ids)), v);
            v.onUserChanged = (userId) => {
              users.forget(userId);
              cache.forgetUser(userId);
            };
            v.onReset = () => {
              users.clear();
              cache.unpinAll();
            };
            r.keepAuthorsIn(users);
            return new PublicGuideBodies(r, v, cache, store, users, logger, inContext, { views, viewWindows: new ViewWindows(settings.viewRefreshSeconds * 1000, Date.now, 50_000) });
          },
          [GuideReader, GuideVersions, PgGuideBodyStore, LOGGER, MikroORM, GuideViewCounter],
        ),
      ],
      exports: [TranslateGuide, TranslateStep, ReadGuideTranslation, CommunityGuides, GuideReader, PublicGuideBodies, GuideViewFlushing, GuideBodyBuilder, GuideVersions, GuideQueries, CreateGuide, AddStep, SetGuidePublic, EditGuide, MarkGuide, GuideRepository],
    };
  }

  /** A stale revision answers with the current guide (or step), as a GET by the same viewer would. */
  onModuleInit(): void {
    this.conflicts.register(async (error, req) => {
      if (error instanceof StaleStepRevisionError) {
        const viewer = (req.principal as Caller | undefined) ?? null;
        const guide = error.langid === undefined ? await this.reader.current(error.guideId as GuideId, viewer) : await this.reader.currentIn(error.guideId as GuideId, viewer, error.langid);
        return this.reader.step(guide, error.stepId);
      }
      if (error instanceof StaleGuideTranslationError) {
        return this.reader.guide(error.guideId as GuideId, (req.principal as Caller | undefined) ?? null, { inlinePrerequisites: false, langid: error.langid });
      }
      if (error instanceof StaleGuideRevisionError) {
        return this.reader.guide(error.guideId as GuideId, (req.principal as Caller | undefined) ?? null, { inlinePrerequisites: false });
      }
      return undefined;
    });
  }
}
