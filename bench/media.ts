// The media figures of `npm run bench`: uploads made into every size (the API: upload over HTTP,
// background jobs, the media store) against the image library alone making the same renditions of
// the same files in the same run (the limit), and the API's peak RSS while ten large uploads
// arrive at once. The photographs are drawn with sharp once and kept under the data directory.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { IMAGE_SIZES, RENDITION_NAMES, renditionDimensions } from '@rc/media-domain';
import { BENCH_APP_ID, BENCH_PASSWORD, writerEmail } from './generate.js';
import { RssSampler } from './lib/processes.js';

/** Photographs of a phone's size (12 MP JPEG, a few MB each). */
const PHOTOS = 8;
const PHOTO = { width: 4032, height: 3024 };
/** The large upload: about 20 MB of JPEG (17.5 MP of fine detail at quality 97). */
const LARGE = { width: 4832, height: 3624 };
const LARGE_UPLOADS = 10;
/** Media jobs the API runs at once (MEDIA_WORKER_CONCURRENCY's default): the reference renders as many images at once. */
const CONCURRENCY = 2;

export interface MediaFigures {
  readonly photos: number;
  readonly photoMb: number;
  readonly referenceImagesPerSecond: number;
  readonly apiImagesPerSecond: number;
  /** The API's throughput as a share of the library's alone (1 = the limit). */
  readonly ratio: number;
  readonly largeUploads: number;
  readonly largeUploadMb: number;
  readonly largeUploadsSeconds: number;
  readonly peakRssMbDuringLargeUploads: number;
}

/** Seeded noise, softened (photos) or not (the large file), as JPEG. */
async function draw(path: string, size: { width: number; height: number }, blur: number, quality: number, seed: number): Promise<Buffer> {
  const cached = await readFile(path).catch(() => null);
  if (cached) return cached;
  // sharp's noise generator is not seeded: the bytes differ between drawings, the kind of content does not.
  let image = sharp({ create: { ...size, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 110 + (seed % 40), sigma: 60 } } });
  if (blur) image = sharp(await image.png({ compressionLevel: 0 }).toBuffer()).blur(blur);
  const bytes = await image.jpeg({ quality }).toBuffer();
  await writeFile(path, bytes);
  return bytes;
}

export async function mediaFiles(dir: string): Promise<{ photos: Buffer[]; large: Buffer }> {
  await mkdir(dir, { recursive: true });
  const photos: Buffer[] = [];
  for (let i = 0; i < PHOTOS; i++) photos.push(await draw(join(dir, `photo-${i}.jpg`), PHOTO, 1.5, 90, i));
  const large = await draw(join(dir, 'large.jpg'), LARGE, 0, 97, 99);
  return { photos, large };
}

/** The renditions the API makes of one upload (every size and the original), by the library alone. */
async function renderAlone(bytes: Buffer): Promise<void> {
  const { width, height } = await sharp(bytes).metadata();
  for (const name of RENDITION_NAMES) {
    const size = renditionDimensions(width!, height!, name);
    const mode = name !== 'original' && IMAGE_SIZES[name].mode === 'cover' ? 'cover' : 'fill';
    await sharp(bytes, { autoOrient: true, sequentialRead: true, failOn: 'error' })
      .resize(size.width, size.height, { fit: mode, position: 'centre' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, progressive: true })
      .toBuffer();
  }
}

async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i]!, i);
    }),
  );
}

async function login(origin: string, writer: number): Promise<string> {
  const res = await fetch(`${origin}/api/2.0/user/token`, {
    method: 'POST',
    headers: { 'X-App-Id': BENCH_APP_ID, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: writerEmail(writer), password: BENCH_PASSWORD }),
  });
  const body = (await res.json()) as { authToken?: string };
  if (res.status !== 201 || !body.authToken) throw new Error(`login of ${writerEmail(writer)} failed: ${res.status}`);
  return body.authToken;
}

interface Uploaded {
  readonly image: { readonly id: number } & Record<string, unknown>;
}

/**
 * Posts an upload on a connection of its own (node:http rather than fetch: an answer the API sends
 * before it has read the whole body, a refusal, is read and reported, where fetch reports only
 * the broken pipe that follows it).
 */
function upload(origin: string, token: string, bytes: Buffer, name: string): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(`${origin}/api/2.0/user/media/images?file=${encodeURIComponent(name)}`, {
      method: 'POST',
      agent: false,
      headers: { Authorization: `api ${token}`, 'Content-Type': 'image/jpeg', 'Content-Length': bytes.length },
    });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200) return reject(new Error(`upload of ${name} answered ${res.statusCode} (${res.headers['connection'] ?? ''}): ${text.slice(0, 300)}`));
        try {
          resolve(JSON.parse(text) as Uploaded);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    // A write cut short by an early answer: the answer says why (read above); without one, the error does.
    req.on('error', (error) => setTimeout(() => answered || reject(new Error(`upload of ${name} failed after ${req.socket?.bytesWritten ?? 0} bytes sent: ${error.message}`)), 1000));
    req.end(bytes);
  });
}

/** Waits until every size of the image is listed (the sizes are made in the background). */
async function allSizes(origin: string, token: string, id: number, timeoutMs = 10 * 60_000): Promise<Uploaded['image']> {
  const started = Date.now();
  for (;;) {
    const res = await fetch(`${origin}/api/2.0/media/images/${id}`, { headers: { Authorization: `api ${token}` } });
    const body = (await res.json()) as Uploaded;
    if (res.status === 200 && Object.keys(IMAGE_SIZES).every((size) => typeof body.image[size] === 'string')) return body.image;
    if (Date.now() - started > timeoutMs) throw new Error(`image ${id} lacked sizes after ${timeoutMs / 1000} s: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * An uploaded image with every size made, for the scenarios that read its files (e.g. the
 * `media-size` scenario): its Image object.
 */
export async function uploadedImage(origin: string, dir: string, writer: number): Promise<Uploaded['image']> {
  const { photos } = await mediaFiles(dir);
  const token = await login(origin, writer);
  const uploaded = await upload(origin, token, photos[0]!, 'bench-read.jpg');
  return allSizes(origin, token, uploaded.image.id);
}

/** Runs the media figures against the API at `origin` (process `pid`), with files kept in `dir`. */
export async function measureMedia(origin: string, pid: number, dir: string, log: (line: string) => void): Promise<MediaFigures> {
  const { photos, large } = await mediaFiles(dir);
  const photoMb = photos.reduce((sum, p) => sum + p.byteLength, 0) / photos.length / 2 ** 20;
  log(`media: ${photos.length} photographs of ${PHOTO.width}×${PHOTO.height} (mean ${photoMb.toFixed(1)} MB), each made into ${RENDITION_NAMES.length} renditions`);

  let started = performance.now();
  await inParallel(photos, CONCURRENCY, (bytes) => renderAlone(bytes));
  const referenceSeconds = (performance.now() - started) / 1000;
  log(`  the image library alone (${CONCURRENCY} at once): ${(photos.length / referenceSeconds).toFixed(2)} images/s`);

  // Two writers, each under the per-user upload rate limit (MEDIA_UPLOAD_RATE_LIMIT) for a few runs an hour.
  const token = await login(origin, 0);
  const ids: number[] = [];
  started = performance.now();
  await inParallel(photos, photos.length, async (bytes, i) => {
    const uploaded = await upload(origin, token, bytes, `bench-${i}.jpg`);
    ids.push(uploaded.image.id);
    await allSizes(origin, token, uploaded.image.id);
  });
  const apiSeconds = (performance.now() - started) / 1000;
  await remove(origin, token, ids);
  log(`  the API (upload, then every size made by its jobs): ${(photos.length / apiSeconds).toFixed(2)} images/s`);

  const largeToken = await login(origin, 1);
  const sampler = new RssSampler(pid, 50);
  started = performance.now();
  const largeIds: number[] = [];
  await inParallel(Array.from({ length: LARGE_UPLOADS }, () => large), LARGE_UPLOADS, async (bytes, i) => void largeIds.push((await upload(origin, largeToken, bytes, `bench-large-${i}.jpg`)).image.id));
  const largeSeconds = (performance.now() - started) / 1000;
  // The sizes of the large uploads are made afterwards: the peak covers that work too.
  for (const id of largeIds) await allSizes(origin, largeToken, id);
  const peak = sampler.stop();
  await remove(origin, largeToken, largeIds);
  const largeMb = large.byteLength / 2 ** 20;
  log(`  ${LARGE_UPLOADS} concurrent uploads of ${largeMb.toFixed(1)} MB accepted in ${largeSeconds.toFixed(1)} s; API peak RSS ${peak.maxProcessMb} MB until all their sizes were made`);

  const referenceImagesPerSecond = photos.length / referenceSeconds;
  const apiImagesPerSecond = photos.length / apiSeconds;
  const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
  return {
    photos: photos.length,
    photoMb: round(photoMb, 1),
    referenceImagesPerSecond: round(referenceImagesPerSecond),
    apiImagesPerSecond: round(apiImagesPerSecond),
    ratio: round(apiImagesPerSecond / referenceImagesPerSecond),
    largeUploads: LARGE_UPLOADS,
    largeUploadMb: round(largeMb, 1),
    largeUploadsSeconds: round(largeSeconds, 1),
    peakRssMbDuringLargeUploads: peak.maxProcessMb,
  };
}

/** Deletes the bench's uploads (their quota and files), as a user of the media library would. */
async function remove(origin: string, token: string, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  const res = await fetch(`${origin}/api/2.0/user/media/images/${ids.join(',')}`, { method: 'DELETE', headers: { Authorization: `api ${token}` } });
  await res.arrayBuffer();
  if (res.status !== 204) throw new Error(`deleting the bench's uploads answered ${res.status}`);
}
