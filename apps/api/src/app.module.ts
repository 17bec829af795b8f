import { fileURLToPath } from 'node:url';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { MikroORM } from '@mikro-orm/postgresql';
import { ArchiveModule, type ArchiveBuildProcess } from '@rc/archive-http';
import { CatalogApiModule, CategoryGuides } from '@rc/catalog-http';
import { CommunityApiModule } from '@rc/community-http';
import { GuideQueries } from '@rc/guides-domain';
import { GuideReader, GuidesApiModule, GuideVersionBarrier, GuideVersions } from '@rc/guides-http';
import { AdminGuard, AppIdGuard, AuthTokenGuard, IdentityApiModule, type IdentityModuleOptions } from '@rc/identity-http';
import { MediaApiModule } from '@rc/media-http';
import { ReputationApiModule } from '@rc/reputation-http';
import { ApiExceptionFilter, BodyValidationPipe, ConflictBodies, LOGGER, wikiRendererFor } from '@rc/shared-http';
import { ormConfig } from '@rc/shared-infra-mikro-orm';
import type { Clock } from '@rc/shared-kernel';
import { TeamsApiModule } from '@rc/teams-http';
import { WebhooksApiModule } from '@rc/webhooks-http';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { allMigrations, allSchemas } from './composition.js';
import { CoreModule } from './core.module.js';
import { EventsModule } from './events/events.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { PeopleModule } from './people/people.module.js';
import { SearchApiModule } from './search/search.api-module.js';
import { OpsModule } from './ops/ops.module.js';
import { GuidesOfCategory } from './wiring/guides-of-category.js';
import { ImagesOfContentModule } from './wiring/images-of-content.js';
import { ReadConsistency, readConsistencyOf, ReadRoutingInterceptor } from './replicas/read-consistency.js';

export interface AppModuleOptions {
  readonly config: AppConfig;
  /** The database actually used (external, or the embedded server started for this process). */
  readonly databaseUrl: string;
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly identity?: IdentityModuleOptions;
  /** Sees every SQL statement (tests count queries per request with it). */
  readonly onQuery?: (sql: string) => void;
  /** The scheduled archive build's process; default: this build's `cli.js archive:build` with this process's environment. */
  readonly archiveBuild?: Partial<ArchiveBuildProcess>;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const { config, logger } = options;
    // One renderer (one memo of rendered texts) for guides, pages and the archive.
    const renderer = wikiRendererFor(config.publicBaseUrl);
    const guides = GuidesApiModule.register({ ...config, renderer, databaseUrl: options.databaseUrl });
    const reputation = ReputationApiModule.register();
    const media = MediaApiModule.register(config);
    return {
      module: AppModule,
      imports: [
        MikroOrmModule.forRoot({
          ...ormConfig({
            clientUrl: options.databaseUrl,
            replicaUrls: config.databaseReplicaUrls,
            entities: allSchemas,
            migrations: allMigrations,
            log: (message) => logger.debug({ context: 'orm' }, message),
            onQuery: options.onQuery,
          }),
          registerRequestContext: true,
        }),
        CoreModule.register(config, logger, options.clock, options.databaseUrl),
        PeopleModule,
        ImagesOfContentModule,
        IdentityApiModule.register(config, options.identity),
        guides,
        CatalogApiModule.register(
          { publicBaseUrl: config.publicBaseUrl, renderer, keptTreeVersions: config.databaseReplicaUrls.length ? 2 : 1, viewFlushSeconds: config.viewFlushSeconds, viewRefreshSeconds: config.viewRefreshSeconds, pageCacheMb: config.pageCacheMb },
          { imports: [guides], provider: { provide: CategoryGuides, inject: [GuideQueries, GuideReader], useFactory: (q: GuideQueries, r: GuideReader) => new GuidesOfCategory(q, r) } },
        ),
        SearchApiModule.register(guides),
        ArchiveModule.register({ ...config, renderer, buildProcess: { entry: fileURLToPath(new URL('./cli.js', import.meta.url)), args: ['archive:build'], env: { ...process.env, DATABASE_URL: options.databaseUrl }, maxOldSpaceMb: config.archiveBuildHeapMb, ...options.archiveBuild } }, guides),
        TeamsApiModule.register(config),
        CommunityApiModule.register({ publicBaseUrl: config.publicBaseUrl, renderer, listCacheMb: config.listCacheMb }, [guides, media]),
        JobsModule,
        WebhooksApiModule.register(config.webhooks),
        media,
        reputation,
        EventsModule.register(reputation),
        OpsModule.register(config),
      ],
      providers: [
        // Guards run in this order: app id, then token, then admin.
        { provide: APP_GUARD, useClass: AppIdGuard },
        { provide: APP_GUARD, useClass: AuthTokenGuard },
        { provide: APP_GUARD, useClass: AdminGuard },
        { provide: APP_FILTER, inject: [LOGGER, ConflictBodies], useFactory: (log: Logger, conflicts: ConflictBodies) => new ApiExceptionFilter(log, conflicts) },
        { provide: APP_PIPE, useClass: BodyValidationPipe },
        // Reads of a GET go to a replica that has replayed what its caller wrote or was answered (with DATABASE_REPLICA_URLS).
        { provide: ReadConsistency, inject: [MikroORM], useFactory: readConsistencyOf },
        { provide: APP_INTERCEPTOR, inject: [ReadConsistency], useFactory: (consistency: ReadConsistency) => new ReadRoutingInterceptor(consistency) },
        // A write answers once its guide changes have been heard (cached guide bodies stay current).
        { provide: APP_INTERCEPTOR, inject: [GuideVersions], useFactory: (versions: GuideVersions) => new GuideVersionBarrier(versions) },
      ],
    };
  }
}
