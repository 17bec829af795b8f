import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestContext } from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/postgresql';
import S3rver from 's3rver';
import sharp from 'sharp';
import { MediaJobHandlers } from '@rc/media-http';
import { testVideo, tinyPdf } from './support/media-files.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

const BASE = 'https://repair.example';
const MAX_VIDEO_BYTES = 300_000;
const MAX_DOCUMENT_BYTES = 20_000;
const QUOTA_BYTES = 400_000;
const RATE_LIMIT = 40;

type Store = 'local' | 's3';

/** Waits until `check` answers something (polling the API, as a client would). */
async function eventually<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; ) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.each<[Store]>([['local'], ['s3']])('videos, documents and embeds over HTTP (%s store)', (store) => {
  let api: TestApi;
  let dir: string;
  let s3: S3rver | null = null;
  let alice: string;
  let bob: string;
  let admin: string;
  let mp4: Buffer;
  let serial = 0;
  /** With the S3 store, file URLs start at a CDN in front of the API (MEDIA_PUBLIC_BASE_URL). */
  const fileBase = store === 's3' ? 'https://cdn.example/files' : `${BASE}/api/2.0`;

  /** POST a raw upload. */
  const upload = (kind: 'videos' | 'documents', token: string | null, query: string, body: Buffer | ReadableStream, headers: Record<string, string> = {}): Promise<ApiResponse> => {
    const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: { ...(token ? { Authorization: `api ${token}` } : {}), ...headers }, body };
    if (!(body instanceof Buffer)) init.duplex = 'half';
    return api.raw('POST', `/api/2.0/user/media/${kind}?${query}`, init);
  };
  /** A file URL of a response, fetched from the API (the CDN's origin). */
  const fetchFile = (url: string, init: RequestInit = {}) => {
    expect(url.startsWith(fileBase)).toBe(true);
    return fetch(`${api.origin}/api/2.0${url.slice(fileBase.length)}`, init);
  };
  const newUser = async (): Promise<string> => {
    const name = `media${++serial}${store}${Date.now().toString(36)}`.slice(0, 30);
    const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: { email: `${name}@example.com`, username: `Media ${name}`, unique_username: name, password: `${name}-long-password` } });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return res.body.authToken as string;
  };
  const count = async (table: 'media_videos' | 'media_documents') => (await api.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `rc-media-files-${store}-`));
    const env: Record<string, string> = {
      PUBLIC_BASE_URL: BASE,
      MEDIA_MAX_VIDEO_BYTES: String(MAX_VIDEO_BYTES),
      MEDIA_MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES),
      MEDIA_QUOTA_BYTES: String(QUOTA_BYTES),
      MEDIA_UPLOAD_RATE_LIMIT: String(RATE_LIMIT),
    };
    if (store === 'local') {
      env['MEDIA_DIR'] = dir;
    } else {
      s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'media' }] });
      const { port } = await s3.run();
      Object.assign(env, {
        MEDIA_STORE: 's3',
        MEDIA_S3_BUCKET: 'media',
        MEDIA_S3_ENDPOINT: `http://127.0.0.1:${port}`,
        MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
        MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER',
        MEDIA_PUBLIC_BASE_URL: 'https://cdn.example/files/',
      });
    }
    // The media jobs run here (posters, sizes), behind the demo pictures' at first: the tests that wait for a job allow for it.
    api = await startTestApi({ MEDIA_WORKER_CONCURRENCY: '2', ...env });
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    mp4 = await testVideo('mp4', { seconds: 2 });
  });

  afterAll(async () => {
    await api?.close();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('videos', () => {
    it('keeps an upload as its one encoding (201), then shows its poster, duration and size once the job read them', async () => {
      const res = await upload('videos', alice, 'file=battery%20swap.mp4', mp4, { 'Content-Type': 'application/json' });
      expect(res.status).toBe(201);
      const { videoid, guid } = res.body;
      expect(res.body).toMatchObject({ objectid: videoid, srcid: null, filename: 'battery swap.mp4', image: null });
      expect(guid).toMatch(/^[A-Za-z][A-Za-z0-9]{15}$/);
      expect(res.body.encodings).toEqual([
        { column: 'MP4_ORIGINAL', label: 'original', width: 0, height: 0, codecs: null, mime: 'video/mp4', format: 'mp4', url: `${fileBase}/media/files/videos/${guid}.mp4`, always_generate: true },
      ]);
      const video = await eventually('the poster', async () => {
        const got = await api.request('GET', `/media/videos/${videoid}`, { token: alice });
        expect(got.status).toBe(200);
        return got.body.image ? got.body : null;
      });
      expect(video).toMatchObject({ duration: 2000, width: 320, height: 240, encodings: [{ width: 320, height: 240, label: '240p' }] });
      // The poster is an image of the owner's library, with its sizes made by the image jobs.
      expect(video.image).toMatchObject({ width: 320, height: 240, ratio: 'FOUR_THREE', srcid: null });
      expect(video.image.image.original).toBe(`${fileBase}/igi/${video.image.image.guid}.full`);
      const poster = await eventually('the poster sizes', async () => {
        const got = (await api.request('GET', `/media/images/${video.image.image.id}`, { token: alice })).body;
        return got.image.mini ? got.image : null;
      });
      const frame = await fetchFile(poster.original);
      expect(frame.status).toBe(200);
      expect(await sharp(Buffer.from(await frame.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
      // Listed, with the same shape.
      const listed = (await api.request('GET', '/user/media/videos?order=DESC', { token: alice })).body;
      expect(listed.find((v: { videoid: number }) => v.videoid === videoid)).toEqual((await api.request('GET', `/media/videos/${videoid}`, { token: alice })).body);
    }, 120_000);

    it('serves the file as uploaded: immutable, ETag and 304, ranges (206, 416), HEAD, nosniff', async () => {
      const res = await upload('videos', alice, 'file=serve.mp4', mp4);
      const url = res.body.encodings[0].url as string;
      const whole = await fetchFile(url);
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer())).toEqual(mp4);
      expect(whole.headers.get('content-type')).toBe('video/mp4');
      expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      const etag = whole.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect((await fetchFile(url, { headers: { 'If-None-Match': etag } })).status).toBe(304);
      const part = await fetchFile(url, { headers: { Range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${mp4.length}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(mp4.subarray(100, 200));
      const outside = await fetchFile(url, { headers: { Range: `bytes=${mp4.length}-` } });
      expect(outside.status).toBe(416);
      expect(outside.headers.get('content-range')).toBe(`bytes */${mp4.length}`);
      const head = await fetchFile(url, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(mp4.length), '']);
      const guid = res.body.guid as string;
      for (const missing of [`${guid}.webm`, 'Aaaaaaaaaaaaaaaa.mp4', `${guid}`, '..%2F..%2Fetc%2Fpasswd']) {
        expect([missing, (await api.raw('GET', `/api/2.0/media/files/videos/${missing}`)).status]).toEqual([missing, 404]);
      }
    });

    it('accepts WebM and QuickTime, told by their bytes', async () => {
      const webm = await upload('videos', alice, 'file=clip.webm', await testVideo('webm', { seconds: 1 }));
      expect(webm.status).toBe(201);
      expect(webm.body.encodings[0]).toMatchObject({ format: 'webm', mime: 'video/webm', column: 'WEBM_ORIGINAL' });
      const mov = await upload('videos', alice, 'file=clip.mov', await testVideo('mov', { seconds: 1 }));
      expect(mov.status).toBe(201);
      expect(mov.body.encodings[0]).toMatchObject({ format: 'mov', mime: 'video/quicktime' });
      const file = await fetchFile(mov.body.encodings[0].url);
      expect(file.headers.get('content-type')).toBe('video/quicktime');
    });

    it('refuses what is not the video it says, too large (413, declared or streamed), or unauthenticated; nothing is kept', async () => {
      const before = await count('media_videos');
      const webm = await testVideo('webm', { seconds: 1 });
      const cases: [string, Buffer, number, string][] = [
        ['notes.mp4', Buffer.from('just some text, not a video at all'), 422, 'MEDIA.UNSUPPORTED_TYPE'],
        ['manual.mp4', tinyPdf(), 422, 'MEDIA.UNSUPPORTED_TYPE'],
        ['clip.mp4', webm, 422, 'MEDIA.INVALID_MEDIA'],
        ['clip.avi', mp4, 422, 'MEDIA.UNSUPPORTED_TYPE'],
        ['big.mp4', Buffer.concat([mp4, Buffer.alloc(MAX_VIDEO_BYTES, 1)]), 413, ''],
      ];
      for (const [file, bytes, status] of cases) {
        const res = await upload('videos', alice, `file=${file}`, bytes);
        expect([file, res.status]).toEqual([file, status]);
        expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
      }
      const chunk = new Uint8Array(64 * 1024).fill(0xff);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > MAX_VIDEO_BYTES * 2) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      const streamed = await upload('videos', alice, 'file=stream.mp4', stream as unknown as ReadableStream).catch(() => null);
      // The server answers 413 as soon as the limit is passed (the client may see the connection cut instead).
      if (streamed) expect(streamed.status).toBe(413);
      expect((await upload('videos', alice, 'nofile=1', mp4)).status).toBe(400);
      expect((await upload('videos', null, 'file=a.mp4', mp4)).status).toBe(401);
      expect(await count('media_videos')).toBe(before);
      if (store === 'local') expect((await readdir(join(dir, '#partial')).catch(() => [])).length).toBe(0);
    });
  });

  describe('documents', () => {
    it('keeps a PDF (201) and serves it as an attachment under its name', async () => {
      const pdf = tinyPdf();
      const res = await upload('documents', alice, 'file=Service%20manual.pdf', pdf);
      expect(res.status).toBe(201);
      const { documentid, guid } = res.body;
      expect(res.body).toMatchObject({
        filename: 'Service manual.pdf',
        title: 'Service manual',
        size: pdf.length,
        document_type: 'application/pdf',
        document_extension: 'pdf',
        type: 'Document',
        download_url: `${fileBase}/media/files/documents/${guid}.pdf`,
        view_url: `${BASE}/Document/${guid}/Service%20manual.pdf`,
      });
      const titled = await upload('documents', alice, 'file=scan.bin&title=Wiring%20diagram', pdf);
      expect(titled.body).toMatchObject({ title: 'Wiring diagram', filename: 'scan.bin' });
      expect((await api.request('GET', `/media/documents/${documentid}`, { token: alice })).body).toEqual(res.body);
      const file = await fetchFile(res.body.download_url);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer())).toEqual(pdf);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="Service manual.pdf"');
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const part = await fetchFile(res.body.download_url, { headers: { Range: 'bytes=0-7' } });
      expect([part.status, Buffer.from(await part.arrayBuffer()).toString()]).toEqual([206, '%PDF-1.4']);
      expect((await fetchFile(titled.body.download_url)).headers.get('content-disposition')).toBe('attachment; filename=scan.bin.pdf');
      expect((await api.raw('GET', `/api/2.0/media/files/documents/${guid}.exe`)).status).toBe(404);
    });

    it('refuses what is not a PDF, too large (413), a bad title; nothing is kept', async () => {
      const before = await count('media_documents');
      const png = await sharp({ create: { width: 60, height: 60, channels: 3, background: '#123' } }).png().toBuffer();
      expect((await upload('documents', alice, 'file=photo.pdf', png)).status).toBe(422);
      expect((await upload('documents', alice, 'file=page.pdf', Buffer.from('<html><script>alert(1)</script></html>'))).status).toBe(422);
      expect((await upload('documents', alice, 'file=big.pdf', Buffer.concat([tinyPdf(), Buffer.alloc(MAX_DOCUMENT_BYTES)]))).status).toBe(413);
      expect((await upload('documents', alice, `file=a.pdf&title=${'x'.repeat(300)}`, tinyPdf())).status).toBe(422);
      expect((await upload('documents', null, 'file=a.pdf', tinyPdf())).status).toBe(401);
      expect(await count('media_documents')).toBe(before);
    });
  });

  describe('embeds', () => {
    it('adds an embed from a URL (201): known providers from the URL alone, other sites with the fields given', async () => {
      const tube = await api.request('POST', '/user/media/embeds', { token: alice, body: { url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', title: 'Big Buck Bunny' } });
      expect(tube.status).toBe(201);
      expect(tube.body).toMatchObject({
        type: 'GuideEmbedObject',
        view_url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
        provider: 'YouTube',
        filename: 'Big Buck Bunny',
        thumbnail: 'https://i.ytimg.com/vi/aqz-KE-bpKQ/hqdefault.jpg',
        html: null,
      });
      const other = await api.request('POST', '/user/media/embeds', { token: alice, body: { url: 'https://repair.example/teardown', type: 'rich', title: 'Teardown live', width: 640 } });
      expect(other.status).toBe(201);
      expect(other.body).toMatchObject({ provider: null, width: 640, html: null });
      const listed = (await api.request('GET', '/user/media/embeds', { token: alice })).body.map((e: { embedid: number }) => e.embedid);
      expect(listed).toEqual(expect.arrayContaining([tube.body.embedid, other.body.embedid]));
      expect((await api.request('GET', '/user/media/embeds', { token: bob })).body.map((e: { embedid: number }) => e.embedid)).not.toContain(tube.body.embedid);
    });

    it('refuses a URL that is not http(s), a missing one, bad fields (422), and no token (401)', async () => {
      for (const body of [{ url: 'javascript:alert(1)' }, { url: 'ftp://files.example/a' }, {}, { url: 'https://a.example', type: 'iframe' }, { url: 'https://a.example', width: -3 }, []]) {
        const res = await api.request('POST', '/user/media/embeds', { token: alice, body });
        expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 422]);
        expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.any(String) })]));
      }
      expect((await api.request('POST', '/user/media/embeds', { body: { url: 'https://a.example' } })).status).toBe(401);
    });
  });

  describe('visibility and limits', () => {
    it('shows a video or document to its owner and Admins; others 403 until content shows it; unknown 404', async () => {
      const video = (await upload('videos', alice, 'file=private.mp4', mp4)).body;
      const document = (await upload('documents', alice, 'file=private.pdf', tinyPdf())).body;
      for (const [kind, id, guid] of [['videos', video.videoid, video.guid], ['documents', document.documentid, document.guid]] as const) {
        expect((await api.request('GET', `/media/${kind}/${id}`, { token: alice })).status).toBe(200);
        expect((await api.request('GET', `/media/${kind}/${guid}`, { token: alice })).status).toBe(200);
        expect((await api.request('GET', `/media/${kind}/${id}`, { token: admin })).status).toBe(200);
        expect((await api.request('GET', `/media/${kind}/${id}`, { token: bob })).status).toBe(403);
        expect((await api.request('GET', `/media/${kind}/${guid}`)).status).toBe(403);
        expect((await api.request('GET', `/media/${kind}/999999`, { token: admin })).status).toBe(404);
        expect((await api.request('GET', `/media/${kind}/Zzzzzzzzzzzzzzzz`, { token: admin })).status).toBe(404);
        expect((await api.request('GET', `/media/${kind}/not-an-id`)).status).toBe(404);
      }
      // Content records the media it shows (here a public guide, as the guides context would record it): anyone may then see them.
      await api.sql(`INSERT INTO media_usages (kind, media_id, context, ref, public, viewer_ids) VALUES ('video', $1, 'guides', 'guide:1', true, '{}'), ('document', $2, 'guides', 'guide:1', true, '{}')`, [video.videoid, document.documentid]);
      expect((await api.request('GET', `/media/videos/${video.videoid}`)).status).toBe(200);
      expect((await api.request('GET', `/media/documents/${document.documentid}`, { token: bob })).status).toBe(200);
      // A video's file is not a document's, nor the other way round.
      expect((await api.raw('GET', `/api/2.0/media/files/documents/${video.guid}.pdf`)).status).toBe(404);
      expect((await api.raw('GET', `/api/2.0/media/files/videos/${document.guid}.mp4`)).status).toBe(404);
    });

    it("refuses an upload past the user's quota before storing it (422), and counts kept uploads", async () => {
      const token = await newUser();
      const before = await count('media_videos');
      // Each upload fits the size limit; the second would take the user's total past the quota.
      const res = await upload('videos', token, 'file=huge.mp4', Buffer.concat([mp4, Buffer.alloc(MAX_VIDEO_BYTES - mp4.length, 0)]));
      expect(res.status).toBe(201);
      const second = await upload('videos', token, 'file=again.mp4', Buffer.concat([mp4, Buffer.alloc(MAX_VIDEO_BYTES - mp4.length, 0)]));
      expect(second.status).toBe(422);
      expect(second.body.message).toMatch(/quota/);
      const doc = await upload('documents', token, 'file=fits.pdf', Buffer.concat([tinyPdf(), Buffer.alloc(MAX_DOCUMENT_BYTES - tinyPdf().length, 0x20)]));
      expect(doc.status).toBe(201);
      expect(await count('media_videos')).toBe(before + 1);
    });

    it('limits uploads per user and window (429 with Retry-After), embeds included', async () => {
      const token = await newUser();
      for (let i = 0; i < RATE_LIMIT; i++) {
        const res = i % 2 ? await upload('documents', token, 'file=x.pdf', Buffer.from('not a pdf')) : await api.request('POST', '/user/media/embeds', { token, body: { url: `https://a.example/${i}` } });
        expect(res.status).toBeLessThan(429);
      }
      const limited = await upload('videos', token, 'file=late.mp4', mp4);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await api.request('POST', '/user/media/embeds', { token, body: { url: 'https://a.example/late' } })).status).toBe(429);
      // Another user is not limited by it.
      expect((await api.request('POST', '/user/media/embeds', { token: bob, body: { url: 'https://a.example/bob' } })).status).toBe(201);
    });
  });

  describe('a crash during processing', () => {
    it('loses no upload: the sweep enqueues again the poster whose job was lost', async () => {
      const res = await upload('videos', alice, 'file=lost.mp4', mp4);
      const id = res.body.videoid as number;
      await eventually('the first poster', async () => (await api.request('GET', `/media/videos/${id}`, { token: alice })).body.image);
      // As if the process died between the commit and the job: the video waits, no job knows of it.
      await api.sql(`UPDATE media_videos SET poster_status = 'processing', poster_image_id = NULL, duration_ms = 0, created_at = now() - interval '10 minutes' WHERE id = $1`, [id]);
      expect((await api.request('GET', `/media/videos/${id}`, { token: alice })).body.image).toBeNull();
      // The sweep job (enqueued at start and every period, by any instance) run now.
      const { app } = api.running;
      const sweep = app.get(MediaJobHandlers).handlers['media.resume-stalled']!;
      await RequestContext.create(app.get(MikroORM).em, () => sweep({}, { attempt: 1, finalAttempt: true }));
      const video = await eventually('the poster made again', async () => {
        const got = (await api.request('GET', `/media/videos/${id}`, { token: alice })).body;
        return got.image ? got : null;
      });
      expect(video).toMatchObject({ duration: 2000, width: 320, height: 240 });
      const [sweeps] = await api.sql<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'media.resume-stalled' AND state = 'created'");
      expect(sweeps!.n).toBeGreaterThanOrEqual(1);
    }, 120_000);
  });
});

describe('videos without a decoder (MEDIA_FFMPEG_PATH=none)', () => {
  let api: TestApi;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rc-media-files-none-'));
    api = await startTestApi({ PUBLIC_BASE_URL: BASE, MEDIA_DIR: dir, MEDIA_FFMPEG_PATH: 'none', MEDIA_WORKER_CONCURRENCY: '2' });
  });
  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('says so at start, keeps and serves videos without poster or metadata, and queues no poster job', async () => {
    expect(api.logs.some((line) => /No video decoder/.test(String(line['msg'])) && line['level'] === 40)).toBe(true);
    const token = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    const mp4 = await testVideo('mp4', { seconds: 1 });
    const res = await api.raw('POST', '/api/2.0/user/media/videos?file=clip.mp4', { method: 'POST', headers: { Authorization: `api ${token}` }, body: mp4 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ image: null, duration: 0, width: 0, height: 0 });
    const file = await fetch(`${api.origin}${String(res.body.encodings[0].url).slice(BASE.length)}`);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(mp4);
    const [jobs] = await api.sql<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'media.video-poster'");
    expect(jobs!.n).toBe(0);
    const [row] = await api.sql<{ poster_status: string }>('SELECT poster_status FROM media_videos WHERE id = $1', [res.body.videoid]);
    expect(row!.poster_status).toBe('unavailable');
  });
});
