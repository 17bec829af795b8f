import { Module, type DynamicModule, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { WikiReader, type CategoryBody } from '@rc/catalog-http';
import { GuideQueries, GuideRepository, ReadGuideTranslation } from '@rc/guides-domain';
import { UserSummaries } from '@rc/identity-contracts';
import { MediaImageFiles, MediaImages } from '@rc/media-contracts';
import { factory, LOGGER } from '@rc/shared-http';
import { Clock } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import { ARCHIVE_SETTINGS, type ArchiveSettings } from './archive-settings.js';
import { ArchiveBuilder } from './archive-builder.js';
import { buildInChild } from './archive-child.js';
import { ArchiveScheduler } from './archive-scheduler.js';
import { ArchiveSource } from './archive-source.js';
import { ArchiveStore } from './archive-store.js';
import { ArchivesController } from './archives.controller.js';

/**
 * The offline archive: its store on disk, the builder (used by `archive:build`, which the scheduled
 * rebuild runs in a child process), the scheduler (started by a server once migrated, never by the
 * CLI) and the download routes. Guides are
 * read through the guides module's ports; categories through the catalog's own reader (the body
 * of `GET /categories/{name}`), looked up in the container; images and their files through the
 * media context's published contracts (its module is global).
 */
@Module({})
export class ArchiveModule implements OnModuleDestroy {
  constructor(private readonly scheduler: ArchiveScheduler) {}

  /** `guides`: the registered guides module (its repository, queries and renderer). */
  static register(settings: ArchiveSettings, guides: DynamicModule): DynamicModule {
    return {
      module: ArchiveModule,
      imports: [guides],
      controllers: [ArchivesController],
      providers: [
        { provide: ARCHIVE_SETTINGS, useValue: settings },
        factory(ArchiveStore, () => new ArchiveStore(settings.archiveDir), []),
        factory(ArchiveSource, (orm: MikroORM) => new ArchiveSource(orm.em), [MikroORM]),
        factory(
          ArchiveBuilder,
          (
            orm: MikroORM,
            source: ArchiveSource,
            store: ArchiveStore,
            guides: GuideRepository,
            queries: GuideQueries,
            users: UserSummaries,
            images: MediaImages,
            imageFiles: MediaImageFiles,
            clock: Clock,
            modules: ModuleRef,
            translations: ReadGuideTranslation,
          ) => {
            let reader: WikiReader | null = null;
            const categoryBody = (title: string, langid?: string): Promise<CategoryBody> => {
              const catalog = (reader ??= modules.get<WikiReader>(WikiReader, { strict: false }));
              return catalog.legacyCategory(title, null, langid);
            };
            return new ArchiveBuilder({ orm, source, store, guides, queries, users, images, imageFiles, renderer: settings.renderer, baseUrl: settings.publicBaseUrl, categoryBody, translations, clock });
          },
          [MikroORM, ArchiveSource, ArchiveStore, GuideRepository, GuideQueries, UserSummaries, MediaImages, MediaImageFiles, Clock, ModuleRef, ReadGuideTranslation],
        ),
        factory(
          ArchiveScheduler,
          (builder: ArchiveBuilder, store: ArchiveStore, logger: Logger) => new ArchiveScheduler(builder, store, logger, (options) => buildInChild(settings.buildProcess, store, options)),
          [ArchiveBuilder, ArchiveStore, LOGGER],
        ),
      ],
      exports: [ArchiveBuilder, ArchiveStore, ArchiveScheduler],
    };
  }

  /** Before the pool closes: a build in progress stops and removes its partial file. */
  async onModuleDestroy(): Promise<void> {
    await this.scheduler.stop();
  }
}
