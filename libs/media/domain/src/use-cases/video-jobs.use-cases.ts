import type { JobRun } from '@rc/shared-kernel';
import { PROBE_HEAD_BYTES } from '../media-settings.js';
import { bytesOf } from '../model/bytes.js';
import { Image } from '../model/image.js';
import type { VideoId } from '../model/media-ids.js';
import { enqueueRenditions } from './image.use-cases.js';
import { MEDIA_JOBS, type MediaDeps } from './media-deps.js';
import { enqueuePoster } from './other-media.use-cases.js';

/** The poster's file name: the video's, with `-poster.jpg` for its extension. */
const posterName = (filename: string) => `${filename.replace(/\.[A-Za-z0-9]{1,5}$/, '')}-poster.jpg`.slice(-255);

/**
 * Reads a video with the decoder: its duration and shown size, and a frame near its start kept as
 * the poster, an Image of the owner's library whose sizes are then made like any upload's. Run
 * again after a crash, it does nothing once the video records its probe; a poster image stored by
 * a run that lost the race is deleted. On the final attempt, a failure marks the video's poster
 * `failed` (the video itself stays served).
 */
export class GenerateVideoPoster {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { videoId: VideoId }, run: JobRun = { attempt: 1, finalAttempt: true }): Promise<void> {
    const { media, store, videos, processor, guids, uow, clock, allowance, settings } = this.deps;
    const video = await media.findVideo({ id: input.videoId });
    if (!video || video.isDeleted || video.state.posterStatus !== 'processing') return;
    if (!videos.available) return this.mark(video.id, 'unavailable');
    let poster: Image | null = null;
    try {
      const source = await store.get(video.key);
      if (!source) throw new Error(`The file of video ${video.id} is missing`);
      const probe = await videos.probe(source.body, video.state.encodings[0]!.format);
      if (probe.frame) {
        const frame = probe.frame;
        const sniffed = await processor.probe(frame.subarray(0, PROBE_HEAD_BYTES), async () => bytesOf(frame));
        if (sniffed.kind === 'image' && sniffed.header.width * sniffed.header.height <= settings.maxPixels) {
          const guid = guids.next();
          const id = await media.nextImageId();
          const key = `images/${guid}/upload`;
          const stored = await store.put(key, bytesOf(frame), 'image/jpeg');
          poster = Image.upload({ id, guid, ownerId: video.state.ownerId, filename: posterName(video.state.filename), header: sniffed.header, byteSize: stored.size, cropToRatio: null, now: clock.now() });
        }
      }
      const made = poster;
      const recorded = await uow.run(async () => {
        const locked = await media.findVideoForUpdate(video.id);
        if (!locked || locked.state.posterStatus !== 'processing') return false;
        if (made) {
          await media.saveImage(made);
          // The poster is counted in the owner's stored bytes (a delete releases them), never refused for the quota.
          await allowance.reserveBytes(locked.state.ownerId, made.state.byteSize, { ...settings.allowance, quotaBytes: 0 });
        }
        locked.recordProbe(probe, made?.id ?? null);
        await media.saveVideo(locked);
        return true;
      });
      // Recorded (the image is the video's now) or not (another run was first): no longer this run's to delete on failure.
      poster = null;
      if (!recorded) {
        if (made) await store.delete(made.uploadKey);
        return;
      }
      // Lost here (a crash), the sizes are enqueued again by the sweep: the image is still processing.
      if (made) await enqueueRenditions(this.deps, made);
    } catch (error) {
      if (poster) await store.delete(poster.uploadKey).catch(() => undefined);
      if (run.finalAttempt) await this.mark(video.id, 'failed');
      throw error;
    }
  }

  private async mark(id: VideoId, status: 'failed' | 'unavailable'): Promise<void> {
    await this.deps.uow.run(async () => {
      const video = await this.deps.media.findVideoForUpdate(id);
      if (!video || video.state.posterStatus !== 'processing') return;
      video.markPosterStatus(status);
      await this.deps.media.saveVideo(video);
    });
  }
}

/** How often the sweep runs, and how long a size or poster may wait for its job before it is enqueued again. */
export const SWEEP_PERIOD_SECONDS = 300;
export const STALLED_AFTER_MINUTES = 2;

/**
 * Enqueues again the jobs of images still processing and videos still waiting for their poster
 * after `olderThanMinutes`: a job lost to a crash or kill between a commit and its enqueue. Jobs
 * are deduplicated by key, so one in fact queued or running is not doubled (and a finished one left
 * nothing processing), which makes the sweep safe on any instance at any time.
 */
export class ResumeStalledMedia {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { olderThanMinutes: number; limit?: number }): Promise<{ images: number; videos: number }> {
    const before = new Date(this.deps.clock.now().getTime() - input.olderThanMinutes * 60_000);
    const images = await this.deps.media.imagesProcessingSince(before, input.limit ?? 1000);
    for (const image of images) await enqueueRenditions(this.deps, image);
    const videos = await this.deps.media.videosAwaitingPosterSince(before, input.limit ?? 1000);
    for (const video of videos) await enqueuePoster(this.deps, video.id);
    return { images: images.length, videos: videos.length };
  }
}

/** The sweep of the period `now` falls in (at start), or of the next one (`ahead`, from the sweep itself). */
export async function enqueueSweep(deps: Pick<MediaDeps, 'jobs' | 'clock'>, ahead = false): Promise<boolean> {
  const slot = Math.floor(deps.clock.now().getTime() / 1000 / SWEEP_PERIOD_SECONDS) + (ahead ? 1 : 0);
  return deps.jobs.enqueue({ name: MEDIA_JOBS.sweep, payload: {}, dedupeKey: `sweep:${slot}`, ...(ahead ? { delaySeconds: SWEEP_PERIOD_SECONDS } : {}) });
}

/** The sweep job: resume what stalled, then enqueue the next period's sweep (whatever happened). */
export async function runSweep(deps: MediaDeps): Promise<void> {
  try {
    await new ResumeStalledMedia(deps).execute({ olderThanMinutes: STALLED_AFTER_MINUTES });
  } finally {
    await enqueueSweep(deps, true);
  }
}
