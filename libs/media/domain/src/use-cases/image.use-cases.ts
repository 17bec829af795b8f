import type { Page } from '@rc/shared-kernel';
import {
  ImageNotFoundError,
  ImageTooManyPixelsError,
  ImageTooSmallError,
  ImageTypeMismatchError,
  InvalidMediaError,
  InvalidMediaParameterError,
  RotateJobIdInUseError,
  RotateJobNotFoundError,
  StorageQuotaExceededError,
  UnsupportedImageTypeError,
  UploadRateLimitedError,
  UploadTooLargeError,
} from '../media.errors.js';
import { PROBE_HEAD_BYTES } from '../media-settings.js';
import { keepHead, limitBytes } from '../model/bytes.js';
import { Image, ROTATION_STEPS, uprightSize } from '../model/image.js';
import { formatOfFilename, IMAGE_MIME_TYPES } from '../model/image-format.js';
import { CROP_RATIOS, IMAGE_RATIOS, type CropRatio, type RatioFilter } from '../model/image-ratio.js';
import { parseMediaRef, type ImageId } from '../model/media-ids.js';
import type { MediaViewer } from '../model/media-viewer.js';
import { displayFilename } from '../model/text-fields.js';
import { RotateJob, ROTATE_JOB_ID_PATTERN } from '../model/rotate-job.js';
import type { SniffedType } from '../ports/image-processor.js';
import type { ByteStream } from '../ports/media-store.js';
import type { LibraryFilter } from '../ports/media.repository.js';
import { assertViewable } from './media-access.js';
import { MEDIA_JOBS, type MediaDeps } from './media-deps.js';

/** Most ids one delete may name (reference §2.3). */
export const MAX_DELETE_IDS = 1000;

export interface UploadImageInput {
  readonly ownerId: number;
  /** The `file` query parameter: its extension says which type the bytes must be. */
  readonly filename: string;
  readonly cropToRatio?: string | null;
  readonly body: ByteStream;
  /** The Content-Length, when the client sent one: a larger upload is refused before it is read. */
  readonly declaredBytes?: number | null;
}

/** The crop ratio parameter: absent, or one of the crop ratios (anything else is a 422 on that field). */
export function parseCropRatio(raw: string | null | undefined): CropRatio | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if ((CROP_RATIOS as readonly string[]).includes(raw)) return raw as CropRatio;
  throw new InvalidMediaError(`cropToRatio must be one of ${CROP_RATIOS.join(', ')}`, 'cropToRatio');
}

/**
 * Adds an image to the uploader's library (reference: POST /user/media/images). The bytes are
 * streamed to the store while counted (no more than the upload limit is read), then checked
 * from their header alone: the type named by the bytes (never the name) must be a raster type
 * the service decodes and the one the file name promises; the declared size must be at least
 * the minimum a side and at most the pixel limit, so a decompression bomb is refused before
 * any pixel is decoded. The upload counts against the user's rate limit and storage quota.
 * The image is answered at once; its renditions are made by a background job.
 */
export class UploadImage {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: UploadImageInput): Promise<Image> {
    const { settings, allowance, store, media, clock } = this.deps;
    const filename = displayFilename(input.filename);
    const expected = formatOfFilename(filename);
    if (!expected) throw new UnsupportedImageTypeError('file must name a JPEG, PNG, GIF, WEBP, AVIF, TIFF, BMP or HEIC image');
    const cropToRatio = parseCropRatio(input.cropToRatio);
    if (input.declaredBytes && input.declaredBytes > settings.maxUploadBytes) throw new UploadTooLargeError(settings.maxUploadBytes);
    const limits = settings.allowance;
    const slot = await allowance.takeUploadSlot(input.ownerId, clock.now(), limits);
    if (!slot.ok) throw new UploadRateLimitedError(slot.retryAfterSeconds);
    if (limits.quotaBytes && input.declaredBytes && (await allowance.storedBytes(input.ownerId)) + input.declaredBytes > limits.quotaBytes) {
      throw new StorageQuotaExceededError(limits.quotaBytes);
    }

    const id = await media.nextImageId();
    const guid = this.deps.guids.next();
    const key = `images/${guid}/upload`;
    const counted = keepHead(
      limitBytes(input.body, settings.maxUploadBytes, () => new UploadTooLargeError(settings.maxUploadBytes)),
      PROBE_HEAD_BYTES,
    );
    const stored = await store.put(key, counted.stream, 'application/octet-stream');
    let reserved = false;
    try {
      const sniffed = await this.deps.processor.probe(counted.head(), async () => (await store.get(key))!.body);
      const header = checkedHeader(sniffed, expected, settings.maxPixels, settings.minSide);
      if (!(await allowance.reserveBytes(input.ownerId, stored.size, limits))) throw new StorageQuotaExceededError(limits.quotaBytes);
      reserved = true;
      const image = Image.upload({ id, guid, ownerId: input.ownerId, filename, header, byteSize: stored.size, cropToRatio, now: clock.now() });
      await media.saveImage(image);
      await enqueueRenditions(this.deps, image);
      return image;
    } catch (error) {
      if (reserved) await allowance.releaseBytes(input.ownerId, stored.size);
      await store.delete(key);
      throw error;
    }
  }
}

function checkedHeader(sniffed: SniffedType, expected: string, maxPixels: number, minSide: number) {
  if (sniffed.kind === 'unknown') throw new UnsupportedImageTypeError('The file is not an image');
  if (sniffed.kind === 'other') {
    if (sniffed.mime === 'image/svg+xml') throw new UnsupportedImageTypeError('SVG images are not accepted: upload a raster image');
    if (sniffed.mime === IMAGE_MIME_TYPES.heic || sniffed.mime === 'image/heif') throw new UnsupportedImageTypeError('HEIC images cannot be decoded by this service: upload a JPEG or PNG');
    if (sniffed.mime.startsWith('image/')) throw new UnsupportedImageTypeError(`${sniffed.mime} images cannot be decoded by this service: upload a JPEG or PNG`);
    throw new UnsupportedImageTypeError(`The file is ${sniffed.mime}, not an image the service accepts`);
  }
  const { header } = sniffed;
  if (header.format !== expected) throw new ImageTypeMismatchError(`The file is named as ${expected.toUpperCase()} but its bytes are ${header.format.toUpperCase()}`);
  if (header.width * header.height > maxPixels) throw new ImageTooManyPixelsError(`The image declares ${header.width}×${header.height} pixels, more than the ${maxPixels} allowed`);
  const upright = uprightSize(header);
  if (upright.width < minSide || upright.height < minSide) throw new ImageTooSmallError(`The image is ${upright.width}×${upright.height}: it must be at least ${minSide}×${minSide}`);
  return header;
}

export async function enqueueRenditions(deps: Pick<MediaDeps, 'jobs'>, image: Image): Promise<void> {
  const { id, version } = image.state;
  await deps.jobs.enqueue({ name: MEDIA_JOBS.renditions, payload: { imageId: id, version }, dedupeKey: `${id}:${version}` });
}

export interface LibraryQuery {
  readonly ratio?: unknown;
  readonly minWidth?: unknown;
  readonly minHeight?: unknown;
}

/** The list filter of GET /user/media/images: `ratio` (default ALL), `minWidth`, `minHeight` (default 0). */
export function parseLibraryFilter(query: LibraryQuery): LibraryFilter {
  const last = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);
  const ratio = last(query.ratio) ?? 'ALL';
  if (typeof ratio !== 'string' || !['ALL', ...IMAGE_RATIOS].includes(ratio)) {
    throw new InvalidMediaParameterError(`ratio must be one of ALL, ${IMAGE_RATIOS.join(', ')}`);
  }
  const dimension = (name: string, raw: unknown): number => {
    const value = last(raw);
    if (value === undefined) return 0;
    if (typeof value !== 'string' || !/^[0-9]{1,9}$/.test(value)) throw new InvalidMediaParameterError(`${name} must be a non-negative integer`);
    return Number(value);
  };
  return { ratio: ratio as RatioFilter, minWidth: dimension('minWidth', query.minWidth), minHeight: dimension('minHeight', query.minHeight) };
}

/** The caller's library, newest first (deleted images are out of it). */
export class ListLibraryImages {
  constructor(private readonly deps: Pick<MediaDeps, 'media'>) {}

  execute(input: { ownerId: number; filter: LibraryFilter; page: Page }): Promise<Image[]> {
    return this.deps.media.listLibrary(input.ownerId, input.filter, input.page);
  }
}

/** An image by id or GUID for a viewer (GET /media/images/{image}): 404 unknown, 403 not viewable. */
export class GetImage {
  constructor(private readonly deps: Pick<MediaDeps, 'media' | 'usage'>) {}

  async execute(input: { viewer: MediaViewer; ref: string }): Promise<Image> {
    const image = await findLive(this.deps, input.ref);
    await assertViewable(this.deps.usage, 'image', image.id, image.state.ownerId, input.viewer);
    return image;
  }
}

async function findLive(deps: Pick<MediaDeps, 'media'>, raw: string): Promise<Image> {
  const ref = parseMediaRef(raw);
  const image = ref ? await deps.media.findImage(ref) : null;
  if (!image || image.isPurged) throw new ImageNotFoundError();
  return image;
}

/**
 * Copies an image the caller may view into their library (POST /user/media/images/{image}):
 * a new image (its own id and GUID, `srcId` the source) with copies of the files made so far.
 */
export class CopyImage {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { viewer: MediaViewer & { userId: number }; ref: string }): Promise<Image> {
    const { media, store, allowance, settings, clock } = this.deps;
    const source = await findLive(this.deps, input.ref);
    await assertViewable(this.deps.usage, 'image', source.id, source.state.ownerId, input.viewer);
    const ownerId = input.viewer.userId;
    const slot = await allowance.takeUploadSlot(ownerId, clock.now(), settings.allowance);
    if (!slot.ok) throw new UploadRateLimitedError(slot.retryAfterSeconds);
    if (!(await allowance.reserveBytes(ownerId, source.state.byteSize, settings.allowance))) throw new StorageQuotaExceededError(settings.allowance.quotaBytes);
    const copy = source.copyFor(await media.nextImageId(), this.deps.guids.next(), ownerId, clock.now());
    const copied: string[] = [];
    try {
      if (!(await store.copy(source.uploadKey, copy.uploadKey))) throw new ImageNotFoundError();
      copied.push(copy.uploadKey);
      for (const name of Object.keys(source.state.renditions) as (keyof typeof source.state.renditions)[]) {
        if (await store.copy(source.renditionKey(name), copy.renditionKey(name))) copied.push(copy.renditionKey(name));
      }
      await media.saveImage(copy);
    } catch (error) {
      await allowance.releaseBytes(ownerId, source.state.byteSize);
      for (const key of copied) await store.delete(key);
      throw error;
    }
    if (copy.missingRenditions.length) await enqueueRenditions(this.deps, copy);
    return copy;
  }
}

/** Reads the id list of DELETE /user/media/images/{ids}: comma-separated ids, at most 1000. */
export function parseImageIds(raw: string): ImageId[] {
  const parts = raw.split(',').map((s) => s.trim());
  if (parts.length > MAX_DELETE_IDS) throw new InvalidMediaParameterError(`At most ${MAX_DELETE_IDS} image ids at once`);
  const ids: ImageId[] = [];
  for (const part of parts) {
    const ref = parseMediaRef(part);
    if (!ref || !('id' in ref)) throw new InvalidMediaParameterError(`'${part}' is not an image id`);
    ids.push(ref.id as ImageId);
  }
  return [...new Set(ids)];
}

/**
 * Removes images from the caller's library (DELETE /user/media/images/{ids}). Ids of unknown
 * images or other users' are skipped. The bytes leave the caller's quota at once; the files are
 * deleted by a background job, and only when no content uses the image: an image a guide shows
 * stays served.
 */
export class DeleteImages {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { ownerId: number; ids: readonly ImageId[] }): Promise<ImageId[]> {
    if (input.ids.length > MAX_DELETE_IDS) throw new InvalidMediaParameterError(`At most ${MAX_DELETE_IDS} image ids at once`);
    const { media, uow, clock, allowance, jobs } = this.deps;
    const removed = await uow.run(async () => {
      const owned = await media.findOwnedImages(input.ownerId, input.ids);
      const done: Image[] = [];
      for (const candidate of owned) {
        const image = await media.findImageForUpdate(candidate.id);
        if (!image || image.isDeleted || image.state.ownerId !== input.ownerId) continue;
        image.removeFromLibrary(clock.now());
        await media.saveImage(image);
        done.push(image);
      }
      return done;
    });
    const bytes = removed.reduce((n, image) => n + image.state.byteSize, 0);
    if (bytes) await allowance.releaseBytes(input.ownerId, bytes);
    for (const image of removed) await jobs.enqueue({ name: MEDIA_JOBS.purge, payload: { imageId: image.id }, dedupeKey: String(image.id) });
    if (removed.length) await this.deps.usage.changed('image', removed.map((image) => image.id));
    return removed.map((image) => image.id);
  }
}

/** A rotation asked for (POST /user/media/images/{image}/rotate → 202 `{jobID}`). */
export class RequestImageRotation {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { ownerId: number; ref: string; degrees: unknown; jobId?: unknown }): Promise<RotateJob> {
    const { media, clock, jobs } = this.deps;
    if (typeof input.degrees !== 'number' || !(ROTATION_STEPS as readonly number[]).includes(input.degrees)) {
      throw new InvalidMediaError('degrees must be 90, 180 or 270', 'degrees');
    }
    let jobId: string;
    if (input.jobId === undefined || input.jobId === null) jobId = this.deps.guids.next();
    else if (typeof input.jobId === 'string' && ROTATE_JOB_ID_PATTERN.test(input.jobId)) jobId = input.jobId;
    else throw new InvalidMediaError('jobID must be 1 to 64 letters, digits or . _ : -', 'jobID');
    const ref = parseMediaRef(input.ref);
    const image = ref ? await media.findImage(ref) : null;
    if (!image || image.isDeleted || image.isPurged || image.state.ownerId !== input.ownerId) throw new ImageNotFoundError();
    const job = RotateJob.request(input.ownerId, jobId, image.id, input.degrees as 90 | 180 | 270, clock.now());
    if (!(await media.addRotateJob(job))) throw new RotateJobIdInUseError(jobId);
    await jobs.enqueue({ name: MEDIA_JOBS.rotate, payload: { userId: input.ownerId, jobId }, dedupeKey: `${input.ownerId}:${jobId}` });
    return job;
  }
}

/** A rotate job of the caller's and the image as it now is (GET /user/media/images/rotate/{jobID}). */
export class GetRotateJob {
  constructor(private readonly deps: Pick<MediaDeps, 'media'>) {}

  async execute(input: { userId: number; jobId: string }): Promise<{ job: RotateJob; image: Image | null }> {
    const job = await this.deps.media.findRotateJob(input.userId, input.jobId);
    if (!job) throw new RotateJobNotFoundError();
    const image = await this.deps.media.findImage({ id: job.state.imageId });
    return { job, image: image && !image.isPurged ? image : null };
  }
}
