import type { Clock, JobQueue, UnitOfWork } from '@rc/shared-kernel';
import type { MediaSettings } from '../media-settings.js';
import type { GuidSource } from '../ports/guid-source.js';
import type { ImageProcessor } from '../ports/image-processor.js';
import type { MediaStore } from '../ports/media-store.js';
import type { MediaTypeSniffer } from '../ports/media-type-sniffer.js';
import type { MediaUsage } from '../ports/media-usage.js';
import type { MediaRepository } from '../ports/media.repository.js';
import type { UploadAllowance } from '../ports/upload-allowance.js';
import type { VideoProcessor } from '../ports/video-processor.js';

export interface MediaDeps {
  readonly media: MediaRepository;
  readonly store: MediaStore;
  readonly processor: ImageProcessor;
  readonly videos: VideoProcessor;
  readonly sniffer: MediaTypeSniffer;
  readonly usage: MediaUsage;
  readonly allowance: UploadAllowance;
  readonly jobs: JobQueue;
  readonly guids: GuidSource;
  readonly clock: Clock;
  readonly uow: UnitOfWork;
  readonly settings: MediaSettings;
}

/** The background jobs of the media context and what each carries. */
export const MEDIA_JOBS = {
  /** `{imageId, version}`: make the renditions the image's version still lacks. */
  renditions: 'media.image-renditions',
  /** `{userId, jobId}`: apply a rotate job, then make the new version's renditions. */
  rotate: 'media.image-rotate',
  /** `{imageId}`: delete the files of a deleted image no content uses. */
  purge: 'media.image-purge',
  /** `{videoId}`: read a video's metadata and make its poster image. */
  poster: 'media.video-poster',
  /**
   * `{}`: enqueue again the sizes and posters never made (a crash or kill lost their job), then
   * enqueue itself for the next period. Enqueued at every start, by every instance (deduplicated).
   */
  sweep: 'media.resume-stalled',
} as const;
