import type { Page } from '@rc/shared-kernel';
import type { Embed } from '../model/embed.js';
import type { Image, ShownImage } from '../model/image.js';
import type { RatioFilter } from '../model/image-ratio.js';
import type { MediaDocument } from '../model/media-document.js';
import type { DocumentId, EmbedId, ImageId, MediaRef, VideoId } from '../model/media-ids.js';
import type { RotateJob } from '../model/rotate-job.js';
import type { Video } from '../model/video.js';

export interface LibraryFilter {
  readonly ratio: RatioFilter;
  readonly minWidth: number;
  readonly minHeight: number;
}

/** Media rows. Writes that read first run in a unit of work with the row locked (`…ForUpdate`). */
export abstract class MediaRepository {
  abstract nextImageId(): Promise<ImageId>;
  abstract nextVideoId(): Promise<VideoId>;
  abstract nextEmbedId(): Promise<EmbedId>;
  abstract nextDocumentId(): Promise<DocumentId>;

  /** An image by id or GUID, whatever its state (deleted, purged): callers decide. */
  abstract findImage(ref: MediaRef): Promise<Image | null>;
  abstract findImageForUpdate(id: ImageId): Promise<Image | null>;
  /** Images of these ids, whatever their state, in one lookup (unknown ids are left out). */
  abstract findImages(ids: readonly ImageId[]): Promise<Image[]>;
  /**
   * What content shows of the images of these ids whose files exist (not purged), in one lookup
   * (unknown ids are left out): the Image objects of guides, pages, lists and search answers.
   */
  abstract findShownImages(ids: readonly ImageId[]): Promise<ShownImage[]>;
  /** Images of these ids that the owner has in the library (not deleted); others are left out. */
  abstract findOwnedImages(ownerId: number, ids: readonly ImageId[]): Promise<Image[]>;
  abstract saveImage(image: Image): Promise<void>;
  /** The owner's library, newest first. */
  abstract listLibrary(ownerId: number, filter: LibraryFilter, page: Page): Promise<Image[]>;
  /** Images whose renditions are still being made since before `before` (for a sweep that re-enqueues lost jobs). */
  abstract imagesProcessingSince(before: Date, limit: number): Promise<Image[]>;

  abstract findVideo(ref: MediaRef): Promise<Video | null>;
  abstract findVideoForUpdate(id: VideoId): Promise<Video | null>;
  /** Videos whose poster job has not finished since before `before` (for the sweep). */
  abstract videosAwaitingPosterSince(before: Date, limit: number): Promise<Video[]>;
  abstract saveVideo(video: Video): Promise<void>;
  abstract listVideos(ownerId: number, order: 'ASC' | 'DESC', page: Page): Promise<Video[]>;

  abstract findEmbed(id: EmbedId): Promise<Embed | null>;
  abstract saveEmbed(embed: Embed): Promise<void>;
  abstract listEmbeds(ownerId: number, page: Page): Promise<Embed[]>;

  abstract findDocument(ref: MediaRef): Promise<MediaDocument | null>;
  /** Documents of these ids, whatever their state, in one lookup (unknown ids are left out). */
  abstract findDocuments(ids: readonly DocumentId[]): Promise<MediaDocument[]>;
  abstract saveDocument(document: MediaDocument): Promise<void>;

  /** Stores a new rotate job; `false` when the user already has one with this id. */
  abstract addRotateJob(job: RotateJob): Promise<boolean>;
  abstract findRotateJob(userId: number, jobId: string): Promise<RotateJob | null>;
  abstract findRotateJobForUpdate(userId: number, jobId: string): Promise<RotateJob | null>;
  abstract saveRotateJob(job: RotateJob): Promise<void>;
}
