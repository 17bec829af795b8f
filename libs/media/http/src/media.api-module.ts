import { Module, type DynamicModule } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import {
  CopyImage,
  DeleteImages,
  GetDocument,
  GetImage,
  GetRotateJob,
  GetVideo,
  GuidSource,
  CompositeMediaUsage,
  ContentImageUsage,
  ImagesForContent,
  ListEmbeds,
  ListLibraryImages,
  ListVideos,
  RequestImageRotation,
  UploadImage,
  ImageProcessor,
  mediaJobHandlers,
  MediaRepository,
  MediaStore,
  MediaTypeSniffer,
  MediaUsage,
  UploadAllowance,
  type MediaDeps,
} from '@rc/media-domain';
import {
  createMediaStore,
  CryptoGuidSource,
  FileTypeSniffer,
  MikroOrmMediaRepository,
  PgMediaUsageRegistry,
  PgUploadAllowance,
  SharpImageProcessor,
  type MediaConfig,
} from '@rc/media-infra-mikro-orm';
import { MediaImages, type ImagesInContent } from '@rc/media-contracts';
import { factory } from '@rc/shared-http';
import { Clock, JobQueue, UnitOfWork, type JobHandler } from '@rc/shared-kernel';
import { MEDIA_SETTINGS } from './media-tokens.js';
import { ImageFilesController } from './image-files.controller.js';
import { MediaController, type MediaHttpSettings } from './media.controller.js';
import { MediaImagesForContent } from './media-images.js';

/**
 * The content of the other contexts that shows images (guides, pages, avatars), each answering
 * the published `ImagesInContent`: the application provides it (globally), so that the media
 * context knows which content uses an image and tells it when an image's files change.
 */
export const IMAGES_IN_CONTENT = Symbol('ImagesInContent[]');

/** The dependencies of the media use cases (one set: the ORM's EntityManager resolves to the request's or the job's context). */
export const MEDIA_DEPS = Symbol('MediaDeps');

/** The handlers of the media context's background jobs; the application runs them (each in its own ORM context). */
export abstract class MediaJobHandlers {
  abstract readonly handlers: Readonly<Record<string, JobHandler>>;
}

export interface MediaModuleSettings {
  /** The site's public base URL: the API answers under `<publicBaseUrl>/api/2.0`. */
  readonly publicBaseUrl: string;
  readonly media: MediaConfig;
}

/**
 * The media context's HTTP adapter: the caller's library, media lookups and the files served
 * from the store. It needs a `JobQueue` provided globally by the application.
 */
@Module({})
export class MediaApiModule {
  static register(settings: MediaModuleSettings): DynamicModule {
    const { media } = settings;
    const http: MediaHttpSettings = { publicBaseUrl: settings.publicBaseUrl, imageBase: media.store.publicBaseUrl ?? `${settings.publicBaseUrl}/api/2.0` };
    return {
      module: MediaApiModule,
      // Other contexts' ports are bound to MediaImages by the application.
      global: true,
      controllers: [MediaController, ImageFilesController],
      providers: [
        // Created at start: a local folder is made, an S3 client configured (its SDK loaded only then).
        { provide: MediaStore, useFactory: () => createMediaStore(media.store) },
        factory(MediaRepository, (orm: MikroORM) => new MikroOrmMediaRepository(orm.em), [MikroORM]),
        factory(UploadAllowance, (orm: MikroORM) => new PgUploadAllowance(orm.em), [MikroORM]),
        {
          provide: MediaUsage,
          inject: [MikroORM, { token: IMAGES_IN_CONTENT, optional: true }],
          useFactory: (orm: MikroORM, content: readonly ImagesInContent[] | undefined) =>
            new CompositeMediaUsage([new PgMediaUsageRegistry(orm.em), ...(content ?? []).map((c) => new ContentImageUsage(c))]),
        },
        { provide: ImageProcessor, useValue: new SharpImageProcessor({ maxPixels: media.settings.maxPixels }) },
        { provide: MediaTypeSniffer, useValue: new FileTypeSniffer() },
        { provide: GuidSource, useValue: new CryptoGuidSource() },
        {
          provide: MEDIA_DEPS,
          inject: [MediaRepository, MediaStore, ImageProcessor, MediaTypeSniffer, MediaUsage, UploadAllowance, JobQueue, GuidSource, Clock, UnitOfWork],
          useFactory: (
            repo: MediaRepository,
            store: MediaStore,
            processor: ImageProcessor,
            sniffer: MediaTypeSniffer,
            usage: MediaUsage,
            allowance: UploadAllowance,
            jobs: JobQueue,
            guids: GuidSource,
            clock: Clock,
            uow: UnitOfWork,
          ): MediaDeps => ({ media: repo, store, processor, sniffer, usage, allowance, jobs, guids, clock, uow, settings: media.settings }),
        },
        { provide: MEDIA_SETTINGS, useValue: http },
        ...[UploadImage, ListLibraryImages, GetImage, CopyImage, DeleteImages, RequestImageRotation, GetRotateJob, ListVideos, ListEmbeds, GetVideo, GetDocument].map((UseCase) => ({
          provide: UseCase,
          inject: [MEDIA_DEPS],
          useFactory: (deps: MediaDeps) => new UseCase(deps),
        })),
        factory(MediaImages, (deps: MediaDeps) => new MediaImagesForContent(new ImagesForContent(deps), http), [MEDIA_DEPS]),
        factory(MediaJobHandlers, (deps: MediaDeps) => ({ handlers: mediaJobHandlers(() => deps) }), [MEDIA_DEPS]),
      ],
      exports: [MediaJobHandlers, MediaStore, MediaImages],
    };
  }
}
