import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import sharp from 'sharp';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, schemaDrift, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { FixedClock, RecordingJobQueue } from '@rc/shared-kernel/testing';
import {
  bytesOf,
  DEFAULT_MEDIA_SETTINGS,
  DeleteImages,
  Embed,
  GetImage,
  Image,
  ListLibraryImages,
  MediaDocument,
  mediaJobHandlers,
  MediaNotViewableError,
  RequestImageRotation,
  RotateJob,
  RotateJobIdInUseError,
  UploadImage,
  Video,
  type EmbedId,
  type DocumentId,
  type ImageId,
  type MediaDeps,
  type VideoId,
} from '@rc/media-domain';
import { LocalMediaStore } from '../stores/local-media-store.js';
import { FfmpegVideoProcessor } from '../processing/ffmpeg-video-processor.js';
import { SharpImageProcessor } from '../processing/sharp-image-processor.js';
import { FileTypeSniffer } from '../processing/file-type-sniffer.js';
import { CryptoGuidSource } from '../processing/crypto-guid-source.js';
import { mediaMigrations } from '../migrations/index.js';
import { SHOWN_SIZES_BACKFILL_SQL } from '../migrations/20261204100000-media-images-shown-sizes.js';
import { mediaSchemas, mediaTables } from './media.schemas.js';
import { MikroOrmMediaRepository } from './mikro-orm-media.repository.js';
import { PgUploadAllowance } from './pg-upload-allowance.js';
import { PgMediaUsageRegistry } from './pg-media-usage.js';

const page = { limit: 20, offset: 0 };
const header = { format: 'jpeg' as const, width: 800, height: 600, orientation: 1, hasAlpha: false, exif: { Make: 'Cam', GPSLatitude: [1, 2, 3] } };

describe('media persistence (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let repo: MikroOrmMediaRepository;
  let allowance: PgUploadAllowance;
  let usage: PgMediaUsageRegistry;
  let root: string;
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);

  beforeAll(async () => {
    db = await createTestOrm({ entities: mediaSchemas, migrations: mediaMigrations });
    em = db.orm.em as EntityManager;
    repo = new MikroOrmMediaRepository(em);
    allowance = new PgUploadAllowance(em);
    usage = new PgMediaUsageRegistry(em);
    root = await mkdtemp(join(tmpdir(), 'rc-media-int-'));
  });
  beforeEach(() => db.truncate(mediaTables));
  afterAll(async () => {
    await db.close();
    await rm(root, { recursive: true, force: true });
  });

  it('creates every table and column the schemas map', async () => {
    expect(await schemaDrift(db.orm)).toEqual([]);
  });

  it('round-trips an image with its sizes of the current version only', async () => {
    const image = await inContext(async () => {
      const created = Image.upload({ id: await repo.nextImageId(), guid: 'Aaaaaaaaaaaaaaa1', ownerId: 5, filename: 'a.jpg', header, byteSize: 3_000_000_000, cropToRatio: 'ONE_ONE', now: new Date('2026-02-01T00:00:00Z') });
      created.recordRendition(1, 'mini', { width: 42, height: 42, format: 'jpeg', bytes: 900 });
      await repo.saveImage(created);
      return created;
    });
    const loaded = await inContext(() => repo.findImage({ guid: 'Aaaaaaaaaaaaaaa1' }));
    expect(loaded!.state).toEqual(image.state);
    expect(loaded!.state.exif).toEqual({ Make: 'Cam' });
    const turned = await inContext(async () => {
      const locked = (await repo.findImageForUpdate(image.id))!;
      locked.rotate(90);
      await repo.saveImage(locked);
      return locked;
    });
    expect((await inContext(() => repo.findImage({ id: image.id })))!.state).toEqual(turned.state);
  });

  it('shows images as their full rows do: sizes of the current version, deleted ones still, purged and unknown ones not', async () => {
    const made = await inContext(async () => {
      const at = new Date('2026-02-01T00:00:00Z');
      const images: Image[] = [];
      for (const guid of ['Bbbbbbbbbbbbbbb1', 'Bbbbbbbbbbbbbbb2', 'Bbbbbbbbbbbbbbb3', 'Bbbbbbbbbbbbbbb4', 'Bbbbbbbbbbbbbbb5']) {
        images.push(Image.upload({ id: await repo.nextImageId(), guid, ownerId: 5, filename: 'a.jpg', header, byteSize: 1000, cropToRatio: null, now: at }));
      }
      const [none, some, turned, removed, purged] = images as [Image, Image, Image, Image, Image];
      for (const name of ['mini', 'thumbnail', 'standard', 'original'] as const) some.recordRendition(1, name, { width: 40, height: 30, format: 'jpeg', bytes: 100 });
      turned.recordRendition(1, 'mini', { width: 40, height: 30, format: 'jpeg', bytes: 100 });
      turned.recordRendition(1, 'large', { width: 40, height: 30, format: 'jpeg', bytes: 100 });
      turned.rotate(90);
      turned.recordRendition(2, 'thumbnail', { width: 30, height: 40, format: 'jpeg', bytes: 100 });
      removed.recordRendition(1, 'huge', { width: 40, height: 30, format: 'jpeg', bytes: 100 });
      removed.removeFromLibrary(at);
      purged.recordRendition(1, 'mini', { width: 40, height: 30, format: 'jpeg', bytes: 100 });
      purged.markPurged(at);
      for (const image of images) await repo.saveImage(image);
      // A size row of the version before the turn (as left by a render that finished after it) is not shown.
      await em.execute(`INSERT INTO media_image_sizes (image_id, size, version, width, height, format, byte_size) VALUES (?, 'large', 1, 40, 30, 'jpeg', 100)`, [turned.id]);
      return { images: [none, some, turned, removed], purged };
    });
    const ids = [...made.images, made.purged].map((image) => image.id);
    const shown = await inContext(() => repo.findShownImages([...ids, 999_999 as ImageId]));
    const full = await inContext(() => repo.findImages(ids));
    const byId = <T extends { id: number }>(list: readonly T[]) => [...list].sort((a, b) => a.id - b.id);
    expect(byId(shown)).toEqual(byId(full.filter((image) => !image.isPurged).map((image) => image.shown)));
    expect(byId(shown).map((image) => [image.version, [...image.sizes].sort()])).toEqual([
      [1, []],
      [1, ['mini', 'original', 'standard', 'thumbnail']],
      [2, ['thumbnail']],
      [1, ['huge']],
    ]);
    // The migration's backfill names the same sizes from the size rows (the stale one left out).
    await em.execute(`UPDATE media_images SET shown_sizes = '{}'`);
    expect(byId(await inContext(() => repo.findShownImages(ids))).every((image) => image.sizes.length === 0)).toBe(true);
    await em.execute(SHOWN_SIZES_BACKFILL_SQL);
    expect(byId(await inContext(() => repo.findShownImages(ids)))).toEqual(byId(shown));
  });

  it('lists a library newest first with ratio and size filters, leaving deleted images out', async () => {
    const ids = await inContext(async () => {
      const out: ImageId[] = [];
      const shapes: [number, number][] = [
        [800, 600],
        [500, 500],
        [1920, 1080],
      ];
      for (const [i, [width, height]] of shapes.entries()) {
        const image = Image.upload({ id: await repo.nextImageId(), guid: `Bbbbbbbbbbbbbbb${i}`, ownerId: 1, filename: 'x.jpg', header: { ...header, width, height }, byteSize: 1, cropToRatio: null, now: new Date(Date.UTC(2026, 0, 1 + i)) });
        await repo.saveImage(image);
        out.push(image.id);
      }
      const gone = Image.upload({ id: await repo.nextImageId(), guid: 'Bbbbbbbbbbbbbbbz', ownerId: 1, filename: 'x.jpg', header, byteSize: 1, cropToRatio: null, now: new Date(Date.UTC(2026, 1, 1)) });
      gone.removeFromLibrary(new Date());
      await repo.saveImage(gone);
      return out;
    });
    const list = (ratio: 'ALL' | 'ONE_ONE' | 'FOUR_THREE' | 'VARIABLE', minWidth = 0, minHeight = 0) =>
      inContext(() => repo.listLibrary(1, { ratio, minWidth, minHeight }, page)).then((l) => l.map((i) => i.id));
    expect(await list('ALL')).toEqual([ids[2], ids[1], ids[0]]);
    expect(await list('ONE_ONE')).toEqual([ids[1]]);
    expect(await list('FOUR_THREE')).toEqual([ids[0]]);
    expect(await list('ALL', 700, 600)).toEqual([ids[2], ids[0]]);
    expect(await inContext(() => repo.listLibrary(1, { ratio: 'ALL', minWidth: 0, minHeight: 0 }, { limit: 1, offset: 1 }))).toHaveLength(1);
  });

  it('round-trips videos, embeds, documents and rotate jobs; a reused job id is refused', async () => {
    await inContext(async () => {
      const image = Image.upload({ id: await repo.nextImageId(), guid: 'Cccccccccccccccc', ownerId: 1, filename: 'p.jpg', header, byteSize: 1, cropToRatio: null, now: new Date() });
      await repo.saveImage(image);
      const video = Video.upload({ id: (await repo.nextVideoId()) as VideoId, guid: 'Vvvvvvvvvvvvvvvv', ownerId: 1, filename: 'v.mp4', format: 'mp4', bytes: 10, now: new Date('2026-01-01T00:00:00Z') });
      video.setPoster(image.id);
      await repo.saveVideo(video);
      expect((await repo.findVideo({ guid: 'Vvvvvvvvvvvvvvvv' }))!.state).toEqual(video.state);
      expect((await repo.listVideos(1, 'DESC', page)).map((v) => v.id)).toEqual([video.id]);
      // Waiting for its poster job until the probe is recorded (the sweep's query).
      expect((await repo.videosAwaitingPosterSince(new Date('2026-01-01T00:01:00Z'), 10)).map((v) => v.id)).toEqual([video.id]);
      expect(await repo.videosAwaitingPosterSince(new Date('2025-12-31T23:59:00Z'), 10)).toEqual([]);
      const probed = (await repo.findVideoForUpdate(video.id))!;
      probed.recordProbe({ durationMs: 2500, width: 320, height: 240 }, null);
      await repo.saveVideo(probed);
      expect((await repo.findVideo({ id: video.id }))!.state).toMatchObject({ posterStatus: 'ready', durationMs: 2500, width: 320, posterImageId: image.id });
      expect(await repo.videosAwaitingPosterSince(new Date('2026-01-01T00:01:00Z'), 10)).toEqual([]);
      const embed = Embed.create((await repo.nextEmbedId()) as EmbedId, 1, 'https://v.example/1', { type: 'video', title: 'T', width: 640 }, new Date('2026-01-01T00:00:00Z'));
      await repo.saveEmbed(embed);
      expect((await repo.findEmbed(embed.id))!.state).toEqual(embed.state);
      const doc = MediaDocument.upload({ id: (await repo.nextDocumentId()) as DocumentId, guid: 'Dddddddddddddddd', ownerId: 1, filename: 'm.pdf', title: 'Manual', byteSize: 99, now: new Date('2026-01-01T00:00:00Z') });
      await repo.saveDocument(doc);
      expect((await repo.findDocument({ id: doc.id }))!.state).toEqual(doc.state);
      const job = RotateJob.request(1, 'job-1', image.id, 90, new Date('2026-01-01T00:00:00Z'));
      expect(await repo.addRotateJob(job)).toBe(true);
      expect(await repo.addRotateJob(RotateJob.request(1, 'job-1', image.id, 180, new Date()))).toBe(false);
      expect(await repo.addRotateJob(RotateJob.request(2, 'job-1', image.id, 180, new Date()))).toBe(true);
      job.applied(2);
      job.finish('complete', new Date('2026-01-01T00:01:00Z'));
      await repo.saveRotateJob(job);
      expect((await repo.findRotateJob(1, 'job-1'))!.state).toEqual(job.state);
    });
  });

  it('holds the rate limit across concurrent uploads (each on its own connection)', async () => {
    const limits = { uploadsPerWindow: 5, windowSeconds: 60, quotaBytes: 0 };
    const now = new Date('2026-03-01T10:00:30Z');
    const results = await Promise.all(Array.from({ length: 20 }, () => RequestContext.create(em.fork(), () => allowance.takeUploadSlot(7, now, limits))));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect(await inContext(() => allowance.takeUploadSlot(7, new Date('2026-03-01T10:01:00Z'), limits))).toEqual({ ok: true });
  });

  it('holds the quota across concurrent reservations, and releases', async () => {
    const limits = { uploadsPerWindow: 0, windowSeconds: 60, quotaBytes: 1000 };
    const results = await Promise.all(Array.from({ length: 12 }, () => RequestContext.create(em.fork(), () => allowance.reserveBytes(8, 100, limits))));
    expect(results.filter(Boolean)).toHaveLength(10);
    expect(await inContext(() => allowance.storedBytes(8))).toBe(1000);
    await inContext(() => allowance.releaseBytes(8, 300));
    expect(await inContext(() => allowance.reserveBytes(8, 300, limits))).toBe(true);
    expect(await inContext(() => allowance.reserveBytes(9, 5000, limits))).toBe(false);
    expect(await inContext(() => allowance.storedBytes(9))).toBe(0);
  });

  it('records usages per piece of content and answers use and visibility from them', async () => {
    await inContext(async () => {
      await usage.replace('guides', 'guide:1', [{ kind: 'image', id: 10 }, { kind: 'image', id: 11 }], { public: true });
      await usage.replace('guides', 'guide:2', [{ kind: 'image', id: 12 }], { public: false, viewerIds: [3] });
      expect([...(await usage.usedAmong('image', [10, 11, 12, 13]))].sort()).toEqual([10, 11, 12]);
      const viewer = (userId: number | null) => ({ userId, mayEditContent: false, isAdmin: false });
      expect(await usage.visibleThroughContent('image', 10, viewer(null))).toBe(true);
      expect(await usage.visibleThroughContent('image', 12, viewer(null))).toBe(false);
      expect(await usage.visibleThroughContent('image', 12, viewer(3))).toBe(true);
      await usage.replace('guides', 'guide:1', [{ kind: 'image', id: 11 }], { public: true });
      expect([...(await usage.usedAmong('image', [10, 11]))]).toEqual([11]);
    });
  });

  it('runs an upload end to end: real store, processor, database and jobs', async () => {
    const jobs = new RecordingJobQueue();
    const deps: MediaDeps = {
      media: repo,
      store: new LocalMediaStore({ root }),
      processor: new SharpImageProcessor({ maxPixels: DEFAULT_MEDIA_SETTINGS.maxPixels }),
      videos: new FfmpegVideoProcessor({ ffmpegPath: null }),
      sniffer: new FileTypeSniffer(),
      usage,
      allowance,
      jobs,
      guids: new CryptoGuidSource(),
      clock: new FixedClock('2026-04-01T00:00:00Z'),
      uow: new MikroOrmUnitOfWork(em),
      settings: DEFAULT_MEDIA_SETTINGS,
    };
    const handlers = mediaJobHandlers(() => deps);
    const runJobs = async () => {
      for (let job = jobs.pending.shift(); job; job = jobs.pending.shift()) await inContext(() => handlers[job.name]!(job.payload, { attempt: 1, finalAttempt: true }));
    };
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c33' } }).jpeg().toBuffer();
    const image = await inContext(() => new UploadImage(deps).execute({ ownerId: 1, filename: 'board.jpg', body: bytesOf(new Uint8Array(jpeg)) }));
    expect(image.state.guid).toMatch(/^[A-Za-z][A-Za-z0-9]{15}$/);
    await runJobs();
    const ready = (await inContext(() => repo.findImage({ id: image.id })))!;
    expect(ready.state.status).toBe('ready');
    expect(ready.state.renditions.standard).toMatchObject({ width: 300, height: 225 });
    expect(await inContext(() => allowance.storedBytes(1))).toBe(jpeg.length);

    await inContext(() => new RequestImageRotation(deps).execute({ ownerId: 1, ref: String(image.id), degrees: 90, jobId: 'r1' }));
    await expect(inContext(() => new RequestImageRotation(deps).execute({ ownerId: 1, ref: String(image.id), degrees: 90, jobId: 'r1' }))).rejects.toBeInstanceOf(RotateJobIdInUseError);
    await runJobs();
    expect((await inContext(() => repo.findImage({ id: image.id })))!.state).toMatchObject({ width: 480, height: 640, version: 2, status: 'ready' });

    await expect(inContext(() => new GetImage(deps).execute({ viewer: { userId: 2, mayEditContent: false, isAdmin: false }, ref: image.state.guid }))).rejects.toBeInstanceOf(MediaNotViewableError);
    await inContext(() => new DeleteImages(deps).execute({ ownerId: 1, ids: [image.id] }));
    await runJobs();
    expect(await inContext(() => new ListLibraryImages(deps).execute({ ownerId: 1, filter: { ratio: 'ALL', minWidth: 0, minHeight: 0 }, page }))).toEqual([]);
    expect((await inContext(() => repo.findImage({ id: image.id })))!.isPurged).toBe(true);
    expect(await deps.store.head(ready.uploadKey)).toBeNull();
    expect(await inContext(() => allowance.storedBytes(1))).toBe(0);
  });
});
