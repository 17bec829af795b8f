import { FixedClock, ImmediateUnitOfWork, RecordingJobQueue } from '@rc/shared-kernel/testing';
import { DEFAULT_MEDIA_SETTINGS, type MediaSettings } from '../media-settings.js';
import { bytesOf } from '../model/bytes.js';
import type { Image } from '../model/image.js';
import type { MediaViewer } from '../model/media-viewer.js';
import type { ImageProcessor } from '../ports/image-processor.js';
import { UploadImage, type UploadImageInput } from '../use-cases/image.use-cases.js';
import { mediaJobHandlers } from '../use-cases/image-jobs.use-cases.js';
import type { MediaDeps } from '../use-cases/media-deps.js';
import { FakeImageProcessor } from './fake-image-processor.js';
import { FakeVideoProcessor } from './fake-video-processor.js';
import { InMemoryMediaStore } from './in-memory-media-store.js';
import { FakeMediaTypeSniffer, InMemoryMediaRepository, InMemoryMediaUsage, InMemoryUploadAllowance, SequenceGuids } from './in-memory-media.js';

export const user = (userId: number): MediaViewer & { userId: number } => ({ userId, mayEditContent: false, isAdmin: false });
export const editor: MediaViewer & { userId: number } = { userId: 900, mayEditContent: true, isAdmin: false };

/** Media use cases over in-memory fakes, with helpers to upload and to run the queued jobs. */
export function mediaTestBed(settings: Partial<MediaSettings> = {}, adapters: { processor?: ImageProcessor; videos?: FakeVideoProcessor } = {}) {
  const media = new InMemoryMediaRepository();
  const store = new InMemoryMediaStore();
  const fake = new FakeImageProcessor();
  const processor = adapters.processor ?? fake;
  const videos = adapters.videos ?? new FakeVideoProcessor();
  const usage = new InMemoryMediaUsage();
  const allowance = new InMemoryUploadAllowance();
  const jobs = new RecordingJobQueue();
  const clock = new FixedClock('2026-06-01T10:00:00Z');
  const deps: MediaDeps = {
    media,
    store,
    processor,
    videos,
    sniffer: new FakeMediaTypeSniffer(),
    usage,
    allowance,
    jobs,
    guids: new SequenceGuids(),
    clock,
    uow: new ImmediateUnitOfWork(),
    settings: { ...DEFAULT_MEDIA_SETTINGS, ...settings, allowance: { ...DEFAULT_MEDIA_SETTINGS.allowance, ...settings.allowance } },
  };
  const handlers = mediaJobHandlers(() => deps);
  return {
    deps,
    media,
    store,
    processor: fake,
    videos,
    usage,
    allowance,
    jobs,
    clock,
    handlers,
    upload(ownerId: number, filename: string, bytes: Uint8Array, extra: Partial<UploadImageInput> = {}): Promise<Image> {
      return new UploadImage(deps).execute({ ownerId, filename, body: bytesOf(bytes, 37), ...extra });
    },
    /** Runs every queued job (and the jobs they queue) once, in order; answers the names run. */
    async runJobs(): Promise<string[]> {
      const ran: string[] = [];
      for (let job = jobs.pending.shift(); job; job = jobs.pending.shift()) {
        await handlers[job.name]!(job.payload, { attempt: 1, finalAttempt: true });
        ran.push(job.name);
      }
      return ran;
    },
  };
}
