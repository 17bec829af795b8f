import { Module, type DynamicModule } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import {
  AddEmbed,
  CopyImage,
  enqueueSweep,
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
  UploadDocument,
  UploadImage,
  UploadVideo,
  ImageProcessor,
  VideoProcessor,
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
  createVideoProcessor,
  CryptoGuidSource,
  KnownProvidersOEmbedResolver,
  FileTypeSniffer,
  MikroOrmMediaRepository,
  PgMediaUsageRegistry,
  PgUploadAllowance,
  SharpImageProcessor,
  type MediaConfig,
} from '@rc/media-infra-mikro-orm';
import { MediaDocuments, MediaImageFiles, MediaImages, type ImagesInContent } from '@rc/media-contracts';
import { factory, LOGGER } from '@rc/shared-http';
import { Clock, JobQueue, UnitOfWork, type JobHandler } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import { MEDIA_SETTINGS } from './media-tokens.js';
import { ImageFilesController } from './image-files.controller.js';
import { MediaFilesController } from './media-files.controller.js';
import { MediaController, type MediaHttpSettings } from './media.controller.js';
import { MediaImageFilesForContent, MediaImagesForContent } from './media-images.js';
import { MediaDocumentsForContent } from './media-documents.js';

/**
 * The content of the other contexts that shows images (guides, pages, avatars), each answering
 * the published `ImagesInContent`: the application provides it (globally), so that the media
 * context knows which content uses an image and tells it when an image's files change.
 */
export const IMAGES_IN_CONTENT = Symbol('ImagesInContent[]');
import { CommunityImages } from '@rc/community-contracts';
import { ImagesForCommunity } from './community-images.js';

/** The dependencies of the media use cases (one set: the ORM's EntityManager resolves to the request's or the job's context). */
export const MEDIA_DEPS = Symbol('MediaDeps');

/** The handlers of the media context's background jobs; the application runs them (each in its own ORM context). */
export abstract class MediaJobHandlers {
  abstract readonly handlers: Readonly<Record<string, JobHandler>>;
  /**
   * Enqueues the sweep that resumes sizes and posters whose jobs were lost (then runs every period):
   * called by every instance once its job queue is started; duplicates are deduplicated.
   */
  abstract startSweep(): Promise<void>;
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
    const http: MediaHttpSettings = { publicBaseUrl: settings.publicBaseUrl, fileBase: media.publicBaseUrl ?? `${settings.publicBaseUrl}/api/2.0` };
    return {
      module: MediaApiModule,
      // Other contexts' ports are bound to MediaImages by the application.
      global: true,
      controllers: [MediaController, ImageFilesController, MediaFilesController],
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
        // Found at start: MEDIA_FFMPEG_PATH, the binary the npm package ships, or ffmpeg on the PATH.
        {
          provide: VideoProcessor,
          inject: [LOGGER],
          useFactory: async (logger: Logger): Promise<VideoProcessor> => {
            const processor = await createVideoProcessor(media.ffmpeg);
            if (!processor.available) logger.warn({ context: 'media' }, 'No video decoder (ffmpeg): videos are kept and served without poster, duration or size');
            return processor;
          },
        },
        { provide: GuidSource, useValue: new CryptoGuidSource() },
        {
          provide: MEDIA_DEPS,
          inject: [MediaRepository, MediaStore, ImageProcessor, VideoProcessor, MediaTypeSniffer, MediaUsage, UploadAllowance, JobQueue, GuidSource, Clock, UnitOfWork],
          useFactory: (
            repo: MediaRepository,
            store: MediaStore,
            processor: ImageProcessor,
            videos: VideoProcessor,
            sniffer: MediaTypeSniffer,
            usage: MediaUsage,
            allowance: UploadAllowance,
            jobs: JobQueue,
            guids: GuidSource,
            clock: Clock,
            uow: UnitOfWork,
          ): MediaDeps => ({ media: repo, store, processor, videos, sniffer, usage, allowance, jobs, guids, clock, uow, settings: media.settings }),
        },
        { provide: MEDIA_SETTINGS, useValue: http },
        ...[UploadImage, ListLibraryImages, GetImage, CopyImage, DeleteImages, RequestImageRotation, GetRotateJob, ListVideos, ListEmbeds, GetVideo, GetDocument, UploadVideo, UploadDocument].map((UseCase) => ({
          provide: UseCase,
          inject: [MEDIA_DEPS],
          useFactory: (deps: MediaDeps) => new UseCase(deps),
        })),
        factory(MediaImages, (deps: MediaDeps) => new MediaImagesForContent(new ImagesForContent(deps), http), [MEDIA_DEPS]),
        factory(MediaImageFiles, (deps: MediaDeps) => new MediaImageFilesForContent(new ImagesForContent(deps), deps.store), [MEDIA_DEPS]),
        factory(MediaDocuments, (deps: MediaDeps) => new MediaDocumentsForContent(deps.media, http, http.publicBaseUrl), [MEDIA_DEPS]),
        factory(AddEmbed, (deps: MediaDeps) => new AddEmbed({ ...deps, oembed: new KnownProvidersOEmbedResolver() }), [MEDIA_DEPS]),
        factory(
          MediaJobHandlers,
          (deps: MediaDeps): MediaJobHandlers => ({
            handlers: mediaJobHandlers(() => deps),
            startSweep: async () => {
              await enqueueSweep(deps);
            },
          }),
          [MEDIA_DEPS],
        ),
        factory(CommunityImages, (repo: MediaRepository) => new ImagesForCommunity(repo), [MediaRepository]),
      ],
      exports: [MediaJobHandlers, MediaStore, CommunityImages, MediaImages, MediaImageFiles, MediaDocuments],
    };
  }
}
