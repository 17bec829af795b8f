import { Global, Module, type DynamicModule } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { Clock, SystemClock, UnitOfWork } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { ConflictBodies, factory, KeptAnswers, LOGGER } from '@rc/shared-http';
import { ContentStampPruning } from './wiring/content-stamp-pruning.js';

export const APP_CONFIG = Symbol('AppConfig');
/** The URL of the database in use (external, or the embedded server started for this process). */
export const DATABASE_URL = Symbol('DatabaseUrl');

export { factory, KeptAnswers, LOGGER };

/** Process-wide services every context module may inject. */
@Global()
@Module({})
export class CoreModule {
  static register(config: AppConfig, logger: Logger, clock: Clock = new SystemClock(), databaseUrl = ''): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: DATABASE_URL, useValue: databaseUrl },
        { provide: Clock, useValue: clock },
        factory(UnitOfWork, (orm: MikroORM) => new MikroOrmUnitOfWork(orm.em), [MikroORM]),
        ConflictBodies,
        KeptAnswers,
        factory(ContentStampPruning, (url: string, logger: Logger) => new ContentStampPruning(url, logger), [DATABASE_URL, LOGGER]),
      ],
      exports: [APP_CONFIG, LOGGER, DATABASE_URL, Clock, UnitOfWork, ConflictBodies, KeptAnswers],
    };
  }
}
