import type { JobHandler, JobPayload, JobRun } from '@rc/shared-kernel';
import type { Image } from '../model/image.js';
import { IMAGE_SIZES, RENDITION_NAMES, type RenditionName } from '../model/image-sizes.js';
import type { ImageId, VideoId } from '../model/media-ids.js';
import { OUTPUT_MIME } from '../model/output-mime.js';
import { MEDIA_JOBS, type MediaDeps } from './media-deps.js';
import { GenerateVideoPoster, runSweep } from './video-jobs.use-cases.js';

/**
 * Makes the renditions an image's version still lacks, the full-resolution original first, each
 * from the kept upload: stored, then recorded on the image (under its row lock). Run again after
 * a crash, it makes only what is missing. A version the image has left (it was rotated meanwhile)
 * is abandoned and its files deleted. On the final attempt, a failure marks the image failed.
 */
export class GenerateImageRenditions {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { imageId: ImageId; version: number }, run: JobRun = { attempt: 1, finalAttempt: true }): Promise<void> {
    const { media, store, processor, uow } = this.deps;
    const image = await media.findImage({ id: input.imageId });
    if (!image || image.isPurged || image.state.version !== input.version) return;
    try {
      for (const name of image.missingRenditions) {
        const source = await store.get(image.uploadKey);
        if (!source) throw new Error(`The upload of image ${image.id} is missing`);
        const key = image.renditionKey(name, input.version);
        const format = image.renditionFormat(name);
        const size = image.renditionSize(name);
        const { rotation } = image.state;
        const crop = image.turnedCrop;
        const mode = name !== 'original' && IMAGE_SIZES[name].mode === 'cover' ? 'cover' : 'fill';
        const stored = await store.put(key, processor.render(source.body, { crop, rotation, ...size, mode, format }, image.state.sourceWidth * image.state.sourceHeight), OUTPUT_MIME[format]);
        const recorded = await uow.run(async () => {
          const current = await media.findImageForUpdate(image.id);
          if (!current || !current.recordRendition(input.version, name, { ...size, format, bytes: stored.size })) return false;
          await media.saveImage(current);
          return true;
        });
        if (!recorded) {
          await store.delete(key);
          return;
        }
      }
      // Content showing the image keeps its Image object (the sizes made): it is built again.
      await this.deps.usage.changed('image', [image.id]);
    } catch (error) {
      if (run.finalAttempt) await this.markFailed(image.id, input.version);
      throw error;
    }
  }

  private async markFailed(id: ImageId, version: number): Promise<void> {
    await this.deps.uow.run(async () => {
      const image = await this.deps.media.findImageForUpdate(id);
      if (!image || image.state.version !== version || image.state.status !== 'processing') return;
      image.markFailed();
      await this.deps.media.saveImage(image);
    });
  }
}

/** The keys of every rendition of one version of an image (to delete a version left behind). */
function versionKeys(image: Image, version: number): string[] {
  return RENDITION_NAMES.map((name: RenditionName) => image.renditionKey(name, version));
}

/**
 * Runs a rotate job: turns the image (a new version) once, however often the job runs, then makes
 * the new version's renditions, deletes the previous version's files and marks the job complete.
 * On the final attempt, a failure marks the job failed.
 */
export class ApplyImageRotation {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { userId: number; jobId: string }, run: JobRun = { attempt: 1, finalAttempt: true }): Promise<void> {
    const { media, uow, clock, store } = this.deps;
    try {
      const target = await uow.run(async () => {
        const job = await media.findRotateJobForUpdate(input.userId, input.jobId);
        if (!job || job.state.status !== 'processing') return null;
        if (job.isApplied) return { imageId: job.state.imageId, version: job.state.appliedVersion! };
        const image = await media.findImageForUpdate(job.state.imageId);
        if (!image || image.isPurged) {
          job.finish('failed', clock.now());
          await media.saveRotateJob(job);
          return null;
        }
        image.rotate(job.state.degrees);
        job.applied(image.state.version);
        await media.saveImage(image);
        await media.saveRotateJob(job);
        return { imageId: image.id, version: image.state.version };
      });
      if (!target) return;
      await new GenerateImageRenditions(this.deps).execute(target, { attempt: run.attempt, finalAttempt: false });
      const image = await media.findImage({ id: target.imageId });
      if (image) for (const key of versionKeys(image, target.version - 1)) await store.delete(key);
      await this.finish(input, 'complete');
    } catch (error) {
      if (run.finalAttempt) await this.finish(input, 'failed');
      throw error;
    }
  }

  private async finish(input: { userId: number; jobId: string }, status: 'complete' | 'failed'): Promise<void> {
    await this.deps.uow.run(async () => {
      const job = await this.deps.media.findRotateJobForUpdate(input.userId, input.jobId);
      if (!job || job.state.status !== 'processing') return;
      job.finish(status, this.deps.clock.now());
      await this.deps.media.saveRotateJob(job);
    });
  }
}

/**
 * Deletes the files of an image removed from its library, unless content uses it (then it stays
 * served, and the job ends: a later delete of that content may enqueue it again).
 */
export class PurgeImage {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { imageId: ImageId }): Promise<boolean> {
    const { media, usage, store, uow, clock } = this.deps;
    const image = await media.findImage({ id: input.imageId });
    if (!image || !image.isDeleted || image.isPurged) return false;
    if ((await usage.usedAmong('image', [image.id])).has(image.id)) return false;
    const keys = await uow.run(async () => {
      const locked = await media.findImageForUpdate(image.id);
      if (!locked || !locked.isDeleted || locked.isPurged) return null;
      const stored = [locked.uploadKey, ...versionKeys(locked, locked.state.version)];
      locked.markPurged(clock.now());
      await media.saveImage(locked);
      return stored;
    });
    if (!keys) return false;
    for (const key of keys) await store.delete(key);
    return true;
  }
}

const num = (payload: JobPayload, key: string): number => {
  const value = payload[key];
  if (typeof value !== 'number') throw new Error(`Job payload lacks ${key}`);
  return value;
};
const str = (payload: JobPayload, key: string): string => {
  const value = payload[key];
  if (typeof value !== 'string') throw new Error(`Job payload lacks ${key}`);
  return value;
};

/** A handler for each media job, given the dependencies of one run (the application scopes them per job). */
export function mediaJobHandlers(depsForRun: () => MediaDeps): Record<string, JobHandler> {
  return {
    [MEDIA_JOBS.renditions]: (p, run) => new GenerateImageRenditions(depsForRun()).execute({ imageId: num(p, 'imageId') as ImageId, version: num(p, 'version') }, run),
    [MEDIA_JOBS.rotate]: (p, run) => new ApplyImageRotation(depsForRun()).execute({ userId: num(p, 'userId'), jobId: str(p, 'jobId') }, run),
    [MEDIA_JOBS.purge]: async (p) => {
      await new PurgeImage(depsForRun()).execute({ imageId: num(p, 'imageId') as ImageId });
    },
    [MEDIA_JOBS.poster]: (p, run) => new GenerateVideoPoster(depsForRun()).execute({ videoId: num(p, 'videoId') as VideoId }, run),
    [MEDIA_JOBS.sweep]: () => runSweep(depsForRun()),
  };
}
