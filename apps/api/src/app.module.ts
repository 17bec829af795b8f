import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { ormConfig } from '@rc/shared-infra-mikro-orm';
import type { Clock } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { allMigrations, allSchemas } from './composition.js';
import { CoreModule, LOGGER } from './core.module.js';
import { ApiExceptionFilter } from './http/api-exception.filter.js';
import { ConflictBodies } from './http/conflict-bodies.js';
import { AdminGuard } from './http/guards/admin.guard.js';
import { AppIdGuard } from './http/guards/app-id.guard.js';
import { AuthTokenGuard } from './http/guards/auth-token.guard.js';
import { BodyValidationPipe } from './http/validation.js';
import { IdentityApiModule, type IdentityModuleOptions } from './identity/identity.api-module.js';
import { GuidesApiModule } from './guides/guides.api-module.js';
import { GuideVersionBarrier } from './guides/guide-version-source.js';
import { GuideVersions } from './guides/guide-versions.js';
import { CatalogApiModule } from './catalog/catalog.api-module.js';
import { SearchApiModule } from './search/search.api-module.js';
import { ArchiveModule } from './archive/archive.module.js';
import { wikiRendererFor } from './markup/wiki-renderer.js';
import { PeopleModule } from './people/user-standings.js';
import { TeamsApiModule } from './teams/teams.api-module.js';
import { ReputationApiModule } from './reputation/reputation.api-module.js';
import { OpsModule } from './ops/ops.module.js';

export interface AppModuleOptions {
  readonly config: AppConfig;
  /** The database actually used (external, or the embedded server started for this process). */
  readonly databaseUrl: string;
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly identity?: IdentityModuleOptions;
  /** Sees every SQL statement (tests count queries per request with it). */
  readonly onQuery?: (sql: string) => void;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const { config, logger } = options;
    const guides = GuidesApiModule.register(wikiRendererFor(config.publicBaseUrl));
    return {
      module: AppModule,
      imports: [
        MikroOrmModule.forRoot({
          ...ormConfig({
            clientUrl: options.databaseUrl,
            entities: allSchemas,
            migrations: allMigrations,
            log: (message) => logger.debug({ context: 'orm' }, message),
            onQuery: options.onQuery,
          }),
          registerRequestContext: true,
        }),
        CoreModule.register(config, logger, options.clock, options.databaseUrl),
        PeopleModule,
        IdentityApiModule.register(config, options.identity),
        guides,
        CatalogApiModule.register(guides),
        SearchApiModule.register(guides),
        ArchiveModule.register(guides),
        TeamsApiModule,
        ReputationApiModule.register(),
        OpsModule.register(config),
      ],
      providers: [
        // Guards run in this order: app id, then token, then admin.
        { provide: APP_GUARD, useClass: AppIdGuard },
        { provide: APP_GUARD, useClass: AuthTokenGuard },
        { provide: APP_GUARD, useClass: AdminGuard },
        { provide: APP_FILTER, inject: [LOGGER, ConflictBodies], useFactory: (log: Logger, conflicts: ConflictBodies) => new ApiExceptionFilter(log, conflicts) },
        { provide: APP_PIPE, useClass: BodyValidationPipe },
        // A write answers once its guide changes have been heard (cached guide bodies stay current).
        { provide: APP_INTERCEPTOR, inject: [GuideVersions], useFactory: (versions: GuideVersions) => new GuideVersionBarrier(versions) },
      ],
    };
  }
}
