import { ANONYMOUS_VIEWER } from '../model/media-viewer.js';
import { bytesOf } from '../model/bytes.js';
import type { ImageId } from '../model/media-ids.js';
import { asciiBytes, editor, fakeImage, mediaTestBed, user } from '../testing/index.js';
import {
  ImageNotFoundError,
  ImageTooManyPixelsError,
  ImageTooSmallError,
  ImageTypeMismatchError,
  InvalidMediaError,
  InvalidMediaParameterError,
  MediaNotViewableError,
  RotateJobIdInUseError,
  RotateJobNotFoundError,
  StorageQuotaExceededError,
  UnsupportedImageTypeError,
  UploadRateLimitedError,
  UploadTooLargeError,
} from '../media.errors.js';
import { CopyImage, DeleteImages, GetImage, GetRotateJob, ListLibraryImages, parseImageIds, parseLibraryFilter, RequestImageRotation, UploadImage } from './image.use-cases.js';
import { mediaJobHandlers } from './image-jobs.use-cases.js';
import { ResumeStalledMedia } from './video-jobs.use-cases.js';
import { MEDIA_JOBS } from './media-deps.js';

const page = { limit: 20, offset: 0 };
const jpeg = (w = 800, h = 600, extra = {}) => fakeImage('jpeg', w, h, extra);

describe('UploadImage', () => {
  it('stores the upload, answers the image at once and makes every rendition in a job', async () => {
    const bed = mediaTestBed();
    const image = await bed.upload(1, 'photo.jpg', jpeg(4000, 3000, { exif: { Make: 'Canon', GPSLatitude: [1, 2, 3] } }));
    expect(image.state).toMatchObject({ ownerId: 1, filename: 'photo.jpg', width: 4000, height: 3000, status: 'processing', exif: { Make: 'Canon' }, renditions: {} });
    expect(bed.jobs.pending).toEqual([{ name: MEDIA_JOBS.renditions, payload: { imageId: image.id, version: 1 }, dedupeKey: `${image.id}:1` }]);
    expect(bed.store.keys()).toEqual([image.uploadKey]);

    await bed.runJobs();
    const done = (await bed.media.findImage({ id: image.id }))!;
    expect(done.state.status).toBe('ready');
    expect(done.state.renditions.standard).toEqual({ width: 300, height: 225, format: 'jpeg', bytes: expect.any(Number) });
    expect(done.state.renditions['140x105']).toMatchObject({ width: 140, height: 105 });
    expect(bed.store.keys().length).toBe(11);
    expect(bed.processor.rendered.find((s) => s.width === 140)).toMatchObject({ mode: 'cover', format: 'jpeg' });
    expect(await bed.allowance.storedBytes(1)).toBe(image.state.byteSize);
  });

  it('renders a crop asked for at upload into every size', async () => {
    const bed = mediaTestBed();
    const image = await bed.upload(1, 'wide.jpg', jpeg(1920, 1080), { cropToRatio: 'FOUR_THREE' });
    expect([image.state.width, image.state.height, image.ratio]).toEqual([1440, 1080, 'FOUR_THREE']);
    await bed.runJobs();
    expect(bed.processor.rendered.every((s) => s.crop?.width === 1440)).toBe(true);
  });

  it.each([
    ['an SVG', 'logo.jpg', asciiBytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), UnsupportedImageTypeError],
    ['text named .jpg', 'notes.jpg', asciiBytes('just some text, not an image'), UnsupportedImageTypeError],
    ['a PDF', 'doc.png', asciiBytes('%PDF-1.7 ...'), UnsupportedImageTypeError],
    ['HEIC this service cannot decode', 'phone.heic', fakeImage('heic', 800, 600), UnsupportedImageTypeError],
    ['PNG bytes named .jpg', 'x.jpg', fakeImage('png', 800, 600), ImageTypeMismatchError],
    ['a 10×10 image', 'tiny.jpg', jpeg(10, 10), ImageTooSmallError],
    ['49 pixels on a side', 'thin.jpg', jpeg(1000, 49), ImageTooSmallError],
    ['a bomb declaring 100000×100000', 'bomb.jpg', jpeg(100000, 100000), ImageTooManyPixelsError],
    ['a name without an image extension', 'photo.svg', jpeg(), UnsupportedImageTypeError],
  ])('refuses %s (422) and keeps nothing', async (_name, filename, bytes, error) => {
    const bed = mediaTestBed();
    await expect(bed.upload(1, filename, bytes)).rejects.toBeInstanceOf(error);
    expect(bed.store.keys()).toEqual([]);
    expect(bed.media.images.size).toBe(0);
    expect(bed.jobs.pending).toEqual([]);
    expect(await bed.allowance.storedBytes(1)).toBe(0);
  });

  it('refuses a bad cropToRatio on its field', async () => {
    const bed = mediaTestBed();
    await expect(bed.upload(1, 'a.jpg', jpeg(), { cropToRatio: 'SIXTEEN_NINE' })).rejects.toMatchObject({ violations: [{ field: 'cropToRatio' }] });
  });

  it('stops reading past the byte limit, and refuses a declared length over it unread', async () => {
    const bed = mediaTestBed({ maxUploadBytes: 1000 });
    await expect(bed.upload(1, 'big.jpg', jpeg(800, 600, { padding: 5000 }))).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(bed.store.keys()).toEqual([]);
    let read = false;
    const body = (async function* () {
      read = true;
      yield new Uint8Array(1);
    })();
    await expect(new UploadImage(bed.deps).execute({ ownerId: 1, filename: 'a.jpg', body, declaredBytes: 5000 })).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(read).toBe(false);
  });

  it('limits uploads per window (429 with the seconds left) per user', async () => {
    const bed = mediaTestBed({ allowance: { uploadsPerWindow: 2, windowSeconds: 60, quotaBytes: 0 } });
    await bed.upload(1, 'a.jpg', jpeg());
    bed.clock.advance(10_000);
    await bed.upload(1, 'b.jpg', jpeg());
    await expect(bed.upload(1, 'c.jpg', jpeg())).rejects.toEqual(expect.objectContaining({ retryAfterSeconds: 50 }));
    await expect(bed.upload(1, 'c.jpg', jpeg())).rejects.toBeInstanceOf(UploadRateLimitedError);
    await bed.upload(2, 'c.jpg', jpeg());
    bed.clock.advance(50_000);
    await bed.upload(1, 'c.jpg', jpeg());
  });

  it('keeps each library within its quota, counting the bytes actually received', async () => {
    const one = jpeg(800, 600, { padding: 400 }).length;
    const bed = mediaTestBed({ allowance: { uploadsPerWindow: 0, windowSeconds: 60, quotaBytes: one * 2 } });
    await bed.upload(1, 'a.jpg', jpeg(800, 600, { padding: 400 }));
    await bed.upload(1, 'b.jpg', jpeg(800, 600, { padding: 400 }));
    await expect(bed.upload(1, 'c.jpg', jpeg(800, 600, { padding: 400 }))).rejects.toBeInstanceOf(StorageQuotaExceededError);
    expect(bed.store.keys().filter((k) => k.endsWith('/upload')).length).toBe(2);
    await expect(bed.upload(1, 'd.jpg', jpeg(), { declaredBytes: one })).rejects.toBeInstanceOf(StorageQuotaExceededError);
  });
});

describe('ListLibraryImages', () => {
  it('lists the caller’s images newest first, filtered by ratio and minimum size', async () => {
    const bed = mediaTestBed();
    const a = await bed.upload(1, 'a.jpg', jpeg(800, 600));
    bed.clock.advance(1000);
    const b = await bed.upload(1, 'b.jpg', jpeg(500, 500));
    bed.clock.advance(1000);
    const c = await bed.upload(1, 'c.jpg', jpeg(1920, 1080));
    await bed.upload(2, 'other.jpg', jpeg());
    const list = (query = {}) => new ListLibraryImages(bed.deps).execute({ ownerId: 1, filter: parseLibraryFilter(query), page }).then((l) => l.map((i) => i.id));
    expect(await list()).toEqual([c.id, b.id, a.id]);
    expect(await list({ ratio: 'ONE_ONE' })).toEqual([b.id]);
    expect(await list({ ratio: 'FOUR_THREE' })).toEqual([a.id]);
    expect(await list({ ratio: 'VARIABLE' })).toEqual([c.id]);
    expect(await list({ minWidth: '700', minHeight: '600' })).toEqual([c.id, a.id]);
    expect(() => parseLibraryFilter({ ratio: 'SQUARE' })).toThrow(InvalidMediaParameterError);
    expect(() => parseLibraryFilter({ minWidth: '-1' })).toThrow(InvalidMediaParameterError);
  });
});

describe('GetImage (visibility)', () => {
  it('shows an image to its owner, editors, and viewers of content using it; 403 to others; 404 unknown', async () => {
    const bed = mediaTestBed();
    const image = await bed.upload(1, 'a.jpg', jpeg());
    const get = (viewer: typeof ANONYMOUS_VIEWER, ref = String(image.id)) => new GetImage(bed.deps).execute({ viewer, ref });
    await expect(get(user(1))).resolves.toBeDefined();
    await expect(get(user(1), image.state.guid)).resolves.toBeDefined();
    await expect(get(editor)).resolves.toBeDefined();
    await expect(get(user(2))).rejects.toBeInstanceOf(MediaNotViewableError);
    await expect(get(ANONYMOUS_VIEWER)).rejects.toBeInstanceOf(MediaNotViewableError);
    bed.usage.use('image', image.id, [2]);
    await expect(get(user(2))).resolves.toBeDefined();
    await expect(get(ANONYMOUS_VIEWER)).rejects.toBeInstanceOf(MediaNotViewableError);
    bed.usage.use('image', image.id);
    await expect(get(ANONYMOUS_VIEWER)).resolves.toBeDefined();
    await expect(get(user(1), '999')).rejects.toBeInstanceOf(ImageNotFoundError);
    await expect(get(user(1), 'not a ref')).rejects.toBeInstanceOf(ImageNotFoundError);
  });
});

describe('CopyImage', () => {
  it('copies a visible image into the caller’s library with its files; 403 when not visible', async () => {
    const bed = mediaTestBed();
    const source = await bed.upload(1, 'a.jpg', jpeg());
    await bed.runJobs();
    await expect(new CopyImage(bed.deps).execute({ viewer: user(2), ref: String(source.id) })).rejects.toBeInstanceOf(MediaNotViewableError);
    bed.usage.use('image', source.id);
    const copy = await new CopyImage(bed.deps).execute({ viewer: user(2), ref: source.state.guid });
    expect(copy.state).toMatchObject({ ownerId: 2, srcId: source.id, status: 'ready', width: 800, height: 600 });
    expect(copy.state.guid).not.toBe(source.state.guid);
    expect(bed.store.keys(`images/${copy.state.guid}/`).length).toBe(11);
    expect(bed.jobs.pending).toEqual([]);
    expect(await bed.allowance.storedBytes(2)).toBe(source.state.byteSize);
  });
});

describe('DeleteImages', () => {
  it('removes the caller’s images, skips others’ and unknown ids, and purges files no content uses', async () => {
    const bed = mediaTestBed();
    const unused = await bed.upload(1, 'a.jpg', jpeg());
    const used = await bed.upload(1, 'b.jpg', jpeg());
    const foreign = await bed.upload(2, 'c.jpg', jpeg());
    await bed.runJobs();
    bed.usage.use('image', used.id);
    const removed = await new DeleteImages(bed.deps).execute({ ownerId: 1, ids: [unused.id, used.id, foreign.id, 999 as ImageId] });
    expect(removed).toEqual([unused.id, used.id]);
    expect(await new ListLibraryImages(bed.deps).execute({ ownerId: 1, filter: parseLibraryFilter({}), page })).toEqual([]);
    expect(await bed.allowance.storedBytes(1)).toBe(0);
    await bed.runJobs();
    expect(bed.store.keys(`images/${unused.state.guid}/`)).toEqual([]);
    expect(bed.store.keys(`images/${used.state.guid}/`).length).toBe(11);
    expect(bed.store.keys(`images/${foreign.state.guid}/`).length).toBe(11);
    await expect(new GetImage(bed.deps).execute({ viewer: ANONYMOUS_VIEWER, ref: String(used.id) })).resolves.toBeDefined();
    await expect(new GetImage(bed.deps).execute({ viewer: user(1), ref: String(unused.id) })).rejects.toBeInstanceOf(ImageNotFoundError);
  });

  it('reads at most 1000 ids', () => {
    expect(parseImageIds('3,1,3')).toEqual([3, 1]);
    expect(() => parseImageIds(Array.from({ length: 1001 }, (_, i) => i + 1).join(','))).toThrow(InvalidMediaParameterError);
    expect(() => parseImageIds('1,x')).toThrow(InvalidMediaParameterError);
  });
});

describe('rotation', () => {
  it('queues a job with the client’s id (409 when reused), turns the image once and remakes its renditions', async () => {
    const bed = mediaTestBed();
    const image = await bed.upload(1, 'a.jpg', jpeg(800, 600));
    await bed.runJobs();
    const rotate = new RequestImageRotation(bed.deps);
    const job = await rotate.execute({ ownerId: 1, ref: String(image.id), degrees: 90, jobId: 'job-1' });
    expect(job.state).toMatchObject({ jobId: 'job-1', status: 'processing' });
    await expect(rotate.execute({ ownerId: 1, ref: String(image.id), degrees: 90, jobId: 'job-1' })).rejects.toBeInstanceOf(RotateJobIdInUseError);
    expect((await new GetRotateJob(bed.deps).execute({ userId: 1, jobId: 'job-1' })).job.state.status).toBe('processing');

    const handlers = mediaJobHandlers(() => bed.deps);
    const [pending] = bed.jobs.take(MEDIA_JOBS.rotate);
    await handlers[MEDIA_JOBS.rotate]!(pending!.payload, { attempt: 1, finalAttempt: false });
    await handlers[MEDIA_JOBS.rotate]!(pending!.payload, { attempt: 2, finalAttempt: false }); // a retry changes nothing
    const { job: done, image: turned } = await new GetRotateJob(bed.deps).execute({ userId: 1, jobId: 'job-1' });
    expect(done.state.status).toBe('complete');
    expect(turned!.state).toMatchObject({ width: 600, height: 800, rotation: 90, version: 2, status: 'ready' });
    expect(bed.store.keys(`images/${image.state.guid}/v1/`)).toEqual([]);
    expect(bed.store.keys(`images/${image.state.guid}/v2/`).length).toBe(10);
    expect(bed.processor.rendered.at(-1)).toMatchObject({ rotation: 90 });
  });

  it('refuses bad degrees and job ids (422), others’ images (404), and unknown jobs (404)', async () => {
    const bed = mediaTestBed();
    const image = await bed.upload(1, 'a.jpg', jpeg());
    const rotate = new RequestImageRotation(bed.deps);
    await expect(rotate.execute({ ownerId: 1, ref: String(image.id), degrees: 45 })).rejects.toBeInstanceOf(InvalidMediaError);
    await expect(rotate.execute({ ownerId: 1, ref: String(image.id), degrees: 90, jobId: 'a b' })).rejects.toBeInstanceOf(InvalidMediaError);
    await expect(rotate.execute({ ownerId: 2, ref: String(image.id), degrees: 90 })).rejects.toBeInstanceOf(ImageNotFoundError);
    const generated = await rotate.execute({ ownerId: 1, ref: String(image.id), degrees: 180 });
    expect(generated.state.jobId).toMatch(/^Guid/);
    await expect(new GetRotateJob(bed.deps).execute({ userId: 2, jobId: generated.state.jobId })).rejects.toBeInstanceOf(RotateJobNotFoundError);
  });
});

describe('rendition jobs', () => {
  it('marks the image failed when the final attempt cannot render it', async () => {
    const bed = mediaTestBed();
    const image = await bed.upload(1, 'a.jpg', jpeg());
    bed.processor.failRenders = true;
    await expect(bed.runJobs()).rejects.toThrow('cannot decode');
    expect((await bed.media.findImage({ id: image.id }))!.state.status).toBe('failed');
  });

  it('re-enqueues images still processing after a while (a lost job)', async () => {
    const bed = mediaTestBed();
    await bed.upload(1, 'a.jpg', jpeg());
    bed.jobs.take();
    bed.clock.advance(11 * 60_000);
    expect(await new ResumeStalledMedia(bed.deps).execute({ olderThanMinutes: 10 })).toEqual({ images: 1, videos: 0 });
    await bed.runJobs();
    expect([...bed.media.images.values()][0]!.state.status).toBe('ready');
  });

  it('accepts a body in odd-sized chunks', async () => {
    const bed = mediaTestBed();
    const image = await new UploadImage(bed.deps).execute({ ownerId: 1, filename: 'a.jpg', body: bytesOf(jpeg(), 1) });
    expect(image.state.byteSize).toBe(jpeg().length);
  });
});
