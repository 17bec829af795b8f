import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { renditionDimensions, type RenditionName } from '@rc/media-domain';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { phoneJpeg, plainJpeg, pngBomb } from './support/media-files.js';
import { DEMO_ACCOUNTS, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

const BASE = 'https://repair.example';
const MAX_UPLOAD_BYTES = 400_000;
const SIZES = ['mini', 'thumbnail', '140x105', '200x150', 'standard', '440x330', 'medium', 'large', 'huge'];

describe('media over HTTP', () => {
  let api: TestApi;
  let mediaDir: string;
  let alice: string;
  let bob: string;
  let photo: Buffer;

  /** POST /user/media/images with raw bytes. */
  const upload = async (token: string | null, file: string, body: Buffer | ReadableStream, headers: Record<string, string> = {}): Promise<ApiResponse> => {
    const init: RequestInit & { duplex?: 'half' } = { headers: { ...(token ? { Authorization: `api ${token}` } : {}), ...headers }, body };
    if (!(body instanceof Buffer)) init.duplex = 'half';
    return api.raw('POST', `/api/2.0/user/media/images?file=${encodeURIComponent(file)}`, init);
  };

  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'rc-media-e2e-'));
    api = await startTestApi({ PUBLIC_BASE_URL: BASE, MEDIA_DIR: mediaDir, MEDIA_WORKER_CONCURRENCY: '2', MEDIA_MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) });
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
    photo = await phoneJpeg();
  });

  afterAll(async () => {
    await api?.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  describe('start', () => {
    it('refuses a start with invalid MEDIA_* variables, naming each', () => {
      expect(() => loadConfig({ MEDIA_STORE: 'floppy', MEDIA_MAX_PIXELS: 'many' })).toThrow(ConfigError);
      expect(() => loadConfig({ MEDIA_STORE: 'floppy', MEDIA_MAX_PIXELS: 'many' })).toThrow(/MEDIA_STORE must be local or s3[\s\S]*MEDIA_MAX_PIXELS must be an integer/);
    });

    it('starts the job queue after the migrations (pg-boss has its schema in the database)', async () => {
      const [row] = await api.sql<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'pgboss'");
      expect(row!.n).toBeGreaterThan(0);
    });
  });

  describe('the library', () => {
    it('uploads raw bytes, whatever the Content-Type says (the JSON body parser leaves the route alone)', async () => {
      for (const type of [undefined, 'application/octet-stream', 'application/json', 'image/jpeg']) {
        const res = await upload(alice, 'phone.jpg', photo, type ? { 'Content-Type': type } : {});
        expect(res.status).toBe(200);
        // Upright: the phone stored 800×600 sideways.
        expect(res.body).toMatchObject({ srcid: null, width: 600, height: 800, ratio: 'VARIABLE', markup: null, exif: { Make: 'TestCam', Model: 'Fixer 1' } });
        expect(Object.keys(res.body.exif).filter((k: string) => /gps/i.test(k))).toEqual([]);
        const image = res.body.image;
        expect(image.guid).toMatch(/^[A-Za-z][A-Za-z0-9]{15}$/);
        expect(image.original).toBe(`${BASE}/api/2.0/igi/${image.guid}.full`);
      }
    });

    it('crops to a ratio when asked', async () => {
      const res = await api.raw('POST', '/api/2.0/user/media/images?file=crop.jpg&cropToRatio=FOUR_THREE', { headers: { Authorization: `api ${alice}` }, body: await plainJpeg(400, 400) });
      expect(res.body).toMatchObject({ width: 400, height: 300, ratio: 'FOUR_THREE' });
      const bad = await api.raw('POST', '/api/2.0/user/media/images?file=crop.jpg&cropToRatio=WIDE', { headers: { Authorization: `api ${alice}` }, body: await plainJpeg(400, 400) });
      expect(bad.status).toBe(422);
    });

    it('refuses what is not an acceptable image', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>');
      const cases: [string, Buffer, number, string][] = [
        ['notes.jpg', Buffer.from('just some text, not a picture at all'), 422, 'MEDIA.UNSUPPORTED_TYPE'],
        ['drawing.svg', svg, 422, 'MEDIA.UNSUPPORTED_TYPE'],
        ['drawing.png', svg, 422, 'MEDIA.UNSUPPORTED_TYPE'],
        ['photo.png', photo, 422, 'MEDIA.TYPE_MISMATCH'],
        ['tiny.jpg', await plainJpeg(20, 20), 422, 'MEDIA.IMAGE_TOO_SMALL'],
        ['bomb.png', pngBomb(100_000, 100_000), 422, 'MEDIA.TOO_MANY_PIXELS'],
        ['big.jpg', Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0xff), 413, ''],
      ];
      for (const [file, bytes, status] of cases) {
        const res = await upload(alice, file, bytes);
        expect([file, res.status]).toEqual([file, status]);
        expect(res.body.message).toEqual(expect.any(String));
      }
      expect((await upload(alice, 'nofile', photo)).status).toBe(422);
      expect((await upload(null, 'phone.jpg', photo)).status).toBe(401);
    });

    it('refuses an upload that grows past the limit without declaring its size (413)', async () => {
      const chunk = new Uint8Array(64 * 1024).fill(0xff);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > MAX_UPLOAD_BYTES * 2) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      const res = await upload(alice, 'stream.jpg', stream as unknown as ReadableStream).catch(() => null);
      // The server answers 413 as soon as the limit is passed (the client may see the connection cut instead).
      if (res) expect(res.status).toBe(413);
    });

    it("lists the caller's images with filters and pages", async () => {
      const all = await api.request('GET', '/user/media/images?limit=100', { token: alice });
      expect(all.status).toBe(200);
      expect(all.body.length).toBeGreaterThanOrEqual(5);
      const fourThree = await api.request('GET', '/user/media/images?ratio=FOUR_THREE', { token: alice });
      expect(fourThree.body.map((i: { ratio: string }) => i.ratio)).toEqual(fourThree.body.map(() => 'FOUR_THREE'));
      expect((await api.request('GET', '/user/media/images?minHeight=700', { token: alice })).body.every((i: { height: number }) => i.height >= 700)).toBe(true);
      expect((await api.request('GET', '/user/media/images?limit=1', { token: alice })).body).toHaveLength(1);
      expect((await api.request('GET', '/user/media/images?ratio=SQUARE', { token: alice })).status).toBe(400);
      // Bob's library holds his own images only (the demo's pictures of him), none of Alice's.
      const alices = new Set(all.body.map((i: { image: { id: number } }) => i.image.id));
      const bobs = (await api.request('GET', '/user/media/images?limit=100', { token: bob })).body as { image: { id: number } }[];
      expect(bobs.filter((i) => alices.has(i.image.id))).toEqual([]);
      expect((await api.request('GET', '/user/media/images')).status).toBe(401);
    });

    it('shows an image to its owner and Admins only while no content uses it (403 others, 404 unknown)', async () => {
      const mine = (await upload(alice, 'private.jpg', photo)).body.image;
      expect((await api.request('GET', `/media/images/${mine.id}`, { token: alice })).status).toBe(200);
      expect((await api.request('GET', `/media/images/${mine.guid}`, { token: alice })).body.image.id).toBe(mine.id);
      const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
      expect((await api.request('GET', `/media/images/${mine.id}`, { token: admin })).status).toBe(200);
      expect((await api.request('GET', `/media/images/${mine.id}`, { token: bob })).status).toBe(403);
      expect((await api.request('GET', `/media/images/${mine.id}`)).status).toBe(403);
      expect((await api.request('GET', '/media/images/999999')).status).toBe(404);
      expect((await api.request('GET', '/media/images/not-an-id')).status).toBe(404);
      expect((await api.request('GET', '/media/videos/999999')).status).toBe(404);
      expect((await api.request('GET', '/media/documents/999999')).status).toBe(404);
    });

    it('copies an image the caller may view; 404 unknown, 403 not viewable', async () => {
      const source = (await upload(alice, 'source.jpg', photo)).body.image;
      const copy = await api.request('POST', `/user/media/images/${source.id}`, { token: alice });
      expect(copy.status).toBe(200);
      expect(copy.body.srcid).toBe(source.id);
      expect(copy.body.image.id).not.toBe(source.id);
      expect((await api.request('POST', `/user/media/images/${source.id}`, { token: bob })).status).toBe(403);
      expect((await api.request('POST', '/user/media/images/999999', { token: alice })).status).toBe(404);
    });

    it("deletes the caller's images (204), skipping unknown and other users' ids, in both forms", async () => {
      const a = (await upload(alice, 'a.jpg', photo)).body.image.id as number;
      const b = (await upload(alice, 'b.jpg', photo)).body.image.id as number;
      const ids = async () => (await api.request('GET', '/user/media/images?limit=100', { token: alice })).body.map((i: { image: { id: number } }) => i.image.id);
      expect((await api.request('DELETE', `/user/media/images/${a},999999`, { token: bob })).status).toBe(204);
      expect(await ids()).toEqual(expect.arrayContaining([a, b]));
      expect((await api.request('DELETE', `/user/media/images/${a},999999`, { token: alice })).status).toBe(204);
      expect(await ids()).not.toContain(a);
      expect((await api.request('DELETE', `/user/media/images?imageids=${b}`, { token: alice })).status).toBe(204);
      expect(await ids()).not.toContain(b);
      expect((await api.request('DELETE', '/user/media/images/x,y', { token: alice })).status).toBe(400);
      expect((await api.request('DELETE', '/user/media/images', { token: alice })).status).toBe(400);
    });

    it('rotates in the background: 202 {jobID}, the job followed to complete, a jobID reused is a 409', async () => {
      const image = (await upload(alice, 'turn.jpg', await plainJpeg(400, 300))).body.image;
      const res = await api.request('POST', `/user/media/images/${image.id}/rotate`, { token: alice, body: { degrees: 90, jobID: 'turn-1' } });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ jobID: 'turn-1' });
      expect((await api.request('POST', `/user/media/images/${image.id}/rotate`, { token: alice, body: { degrees: 90, jobID: 'turn-1' } })).status).toBe(409);
      expect((await api.request('POST', `/user/media/images/${image.id}/rotate`, { token: alice, body: { degrees: 45 } })).status).toBe(422);
      expect((await api.request('POST', `/user/media/images/${image.id}/rotate`, { token: bob, body: { degrees: 90 } })).status).toBe(404);
      const generated = await api.request('POST', `/user/media/images/${image.id}/rotate`, { token: alice, body: { degrees: 180 } });
      expect(generated.body.jobID).toEqual(expect.any(String));
      expect((await api.request('GET', '/user/media/images/rotate/turn-1', { token: bob })).status).toBe(404);
      expect((await api.request('GET', '/user/media/images/rotate/unknown', { token: alice })).status).toBe(404);
      let job: ApiResponse;
      for (const deadline = Date.now() + 30_000; ; ) {
        job = await api.request('GET', '/user/media/images/rotate/turn-1', { token: alice });
        expect(job.status).toBe(200);
        expect(['processing', 'complete']).toContain(job.body.status);
        if (job.body.status === 'complete') break;
        if (Date.now() > deadline) throw new Error('the rotate job did not complete');
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(job.body.item).toMatchObject({ type: 'GuideImage', imageid: image.id, guid: image.guid });
      // A turned image has new file URLs (the old ones stay cached elsewhere for a year): the old stem is gone.
      const turned = (await api.request('GET', `/media/images/${image.id}`, { token: alice })).body.image;
      expect(turned.original).toMatch(new RegExp(`/igi/${image.guid}-[0-9]+\\.full$`));
      const old = await api.raw('GET', `/api/2.0/igi/${image.guid}.full`);
      expect(old.status).toBe(404);
      expect(old.body.message).toMatch(/rotated/);
    });

    // The demo pictures' sizes may still be in the making, by the same workers: a longer wait.
    it('serves every size of an uploaded phone photo: upright, at its size, without GPS or any EXIF', async () => {
      const uploaded = await upload(alice, 'sizes.jpg', photo);
      const id = uploaded.body.image.id as number;
      // The sizes appear in the Image object as the background job makes them.
      let image: Record<string, string | number> = {};
      for (const deadline = Date.now() + 100_000; ; ) {
        image = (await api.request('GET', `/media/images/${id}`, { token: alice })).body.image;
        if (SIZES.every((size) => image[size])) break;
        if (Date.now() > deadline) throw new Error(`sizes still missing: ${SIZES.filter((s) => !image[s]).join(', ')}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const stem = String(image['original']).replace(/\.full$/, '');
      // What the domain promises for an upright 600×800 image (fitted sizes keep the ratio, fixed ones are cut to the box).
      const expected = (size: string) => Object.values(renditionDimensions(600, 800, size as RenditionName));
      expect(expected('mini')).toEqual([32, 42]);
      expect(expected('440x330')).toEqual([440, 330]);
      expect(expected('original')).toEqual([600, 800]);
      for (const size of [...SIZES, 'original']) {
        const url = size === 'original' ? String(image['original']) : `${stem}.${size}`;
        expect(url).toBe(size === 'original' ? `${stem}.full` : image[size]);
        const res = await fetch(api.origin + url.slice(BASE.length));
        expect([size, res.status]).toEqual([size, 200]);
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
        expect([size, meta.width, meta.height]).toEqual([size, ...expected(size)]);
        expect(meta.exif).toBeUndefined();
        expect(meta.orientation).toBeUndefined();
      }
    }, 120_000);

    it('answers ranges (206, 416), HEAD, conditional requests; unknown files and sizes not made are 404s', async () => {
      const id = (await upload(alice, 'range.jpg', photo)).body.image.id as number;
      let original: string;
      for (const deadline = Date.now() + 60_000; ; ) {
        const body = (await api.request('GET', `/media/images/${id}`, { token: alice })).body;
        if (body.image.mini) {
          original = `/api/2.0/igi/${body.image.guid}.full`;
          break;
        }
        if (Date.now() > deadline) throw new Error('no size made');
        await new Promise((r) => setTimeout(r, 250));
      }
      const whole = await fetch(api.origin + original);
      const bytes = Buffer.from(await whole.arrayBuffer());
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      const part = await fetch(api.origin + original, { headers: { Range: 'bytes=10-19' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20));
      const tail = await fetch(api.origin + original, { headers: { Range: 'bytes=-5' } });
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(bytes.subarray(bytes.length - 5));
      const outside = await fetch(api.origin + original, { headers: { Range: `bytes=${bytes.length}-` } });
      expect(outside.status).toBe(416);
      expect(outside.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
      const head = await fetch(api.origin + original, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(bytes.length));
      expect(await head.text()).toBe('');
      const again = await fetch(api.origin + original, { headers: { 'If-None-Match': whole.headers.get('etag')! } });
      expect(again.status).toBe(304);
      const guid = original.split('/').pop()!.split('.')[0];
      expect((await api.raw('GET', `/api/2.0/igi/${guid}.enormous`)).status).toBe(404);
      expect((await api.raw('GET', '/api/2.0/igi/Aaaaaaaaaaaaaaaa.full')).status).toBe(404);
      expect((await api.raw('GET', '/api/2.0/igi/../../etc/passwd')).status).toBe(404);
      expect((await api.raw('GET', `/api/2.0/igi/${guid}-7.full`)).status).toBe(404);
    });

    it('a size not made yet is a 404 with Retry-After (here: the image is still being made)', async () => {
      const res = await upload(alice, 'fresh.jpg', await plainJpeg(2400, 1800));
      const first = await api.raw('GET', `/api/2.0/igi/${res.body.image.guid}.mini`);
      // The job may already have made it on a fast machine.
      if (first.status === 404) {
        expect(first.headers.get('retry-after')).toBe('2');
        expect(first.body.message).toMatch(/not made yet/);
      } else {
        expect(first.status).toBe(200);
      }
    });

    it('lists videos and embeds (none yet)', async () => {
      expect((await api.request('GET', '/user/media/videos', { token: alice })).body).toEqual([]);
      expect((await api.request('GET', '/user/media/videos?order=sideways', { token: alice })).status).toBe(400);
      expect((await api.request('GET', '/user/media/embeds', { token: alice })).body).toEqual([]);
      expect((await api.request('GET', '/user/media/embeds')).status).toBe(401);
    });
  });


  describe('with no media worker in this process, and a CDN in front', () => {
    let idle: TestApi;
    let idleDir: string;

    beforeAll(async () => {
      idleDir = await mkdtemp(join(tmpdir(), 'rc-media-e2e-'));
      idle = await startTestApi({ PUBLIC_BASE_URL: BASE, MEDIA_DIR: idleDir, MEDIA_WORKER_CONCURRENCY: '0', MEDIA_PUBLIC_BASE_URL: 'https://img.example/' });
    });

    afterAll(async () => {
      await idle?.close();
      await rm(idleDir, { recursive: true, force: true });
    });

    it('lists only original until the sizes are made; a size not made yet is a 404 with Retry-After', async () => {
      const token = await idle.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
      const res = await idle.raw('POST', '/api/2.0/user/media/images?file=queued.jpg', { headers: { Authorization: `api ${token}` }, body: photo });
      expect(res.status).toBe(200);
      const { guid } = res.body.image;
      expect(res.body.image).toEqual({ id: res.body.image.id, guid, original: `https://img.example/igi/${guid}.full` });
      for (const size of ['full', 'mini']) {
        const file = await idle.raw('GET', `/api/2.0/igi/${guid}.${size}`);
        expect(file.status).toBe(404);
        expect(file.headers.get('retry-after')).toBe('2');
        expect(file.body.message).toMatch(/not made yet/);
      }
      const [jobs] = await idle.sql<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'media.image-renditions' AND state = 'created' AND (data->>'imageId')::int = $1", [res.body.image.id]);
      expect(jobs!.n).toBe(1);
    });
  });
});
