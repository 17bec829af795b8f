import { Module, type DynamicModule, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { GuideQueries, GuideRepository } from '@rc/guides-domain';
import { GetUsers } from '@rc/identity-domain';
import { Clock } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import { WikiReader } from '../catalog/wiki-reader.js';
import type { AppConfig } from '../config/config.js';
import { APP_CONFIG, factory, LOGGER } from '../core.module.js';
import type { WikiRenderer } from '../guides/guide.presenter.js';
import { WIKI_RENDERER } from '../guides/guides.api-module.js';
import type { CategoryBody } from '../xml/omanual-category.mapper.js';
import { ArchiveBuilder } from './archive-builder.js';
import { ArchiveScheduler } from './archive-scheduler.js';
import { ArchiveSource } from './archive-source.js';
import { ArchiveStore } from './archive-store.js';
import { ArchivesController } from './archives.controller.js';

/**
 * The offline archive: its store on disk, the builder (used by `archive:build` and the scheduled
 * rebuild), the scheduler (started by a server once migrated, never by the CLI) and the download routes. Guides are
 * read through the guides module's ports; categories through the catalog's own reader (the body
 * of `GET /categories/{name}`), looked up in the container.
 */
@Module({})
export class ArchiveModule implements OnModuleDestroy {
  constructor(private readonly scheduler: ArchiveScheduler) {}

  /** `guides`: the registered guides module (its repository, queries and renderer). */
  static register(guides: DynamicModule): DynamicModule {
    return {
      module: ArchiveModule,
      imports: [guides],
      controllers: [ArchivesController],
      providers: [
        factory(ArchiveStore, (config: AppConfig) => new ArchiveStore(config.archiveDir), [APP_CONFIG]),
        factory(ArchiveSource, (orm: MikroORM) => new ArchiveSource(orm.em), [MikroORM]),
        factory(
          ArchiveBuilder,
          (orm: MikroORM, source: ArchiveSource, store: ArchiveStore, guides: GuideRepository, queries: GuideQueries, users: GetUsers, renderer: WikiRenderer, config: AppConfig, clock: Clock, modules: ModuleRef) => {
            let reader: WikiReader | null = null;
            const categoryBody = (title: string): Promise<CategoryBody> => {
              const catalog = (reader ??= modules.get<WikiReader>(WikiReader, { strict: false }));
              return catalog.legacyCategory(title, null);
            };
            return new ArchiveBuilder({ orm, source, store, guides, queries, users, renderer, baseUrl: config.publicBaseUrl, categoryBody, clock });
          },
          [MikroORM, ArchiveSource, ArchiveStore, GuideRepository, GuideQueries, GetUsers, WIKI_RENDERER, APP_CONFIG, Clock, ModuleRef],
        ),
        factory(ArchiveScheduler, (builder: ArchiveBuilder, store: ArchiveStore, logger: Logger) => new ArchiveScheduler(builder, store, logger), [ArchiveBuilder, ArchiveStore, LOGGER]),
      ],
      exports: [ArchiveBuilder, ArchiveStore, ArchiveScheduler],
    };
  }

  /** Before the pool closes: a build in progress stops and removes its partial file. */
  async onModuleDestroy(): Promise<void> {
    await this.scheduler.stop();
  }
}
