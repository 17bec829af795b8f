import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { readZip } from '@rc/archive-http/testing';
import { ArchiveBuilder, ArchiveNotBuiltError, ArchiveScheduler, ArchiveStore, buildInChild } from '@rc/archive-http';
import { runCli, type CliIo } from '../src/cli/run-cli.js';
import { categoryPath, guidePath, MANIFEST_PATH } from '@rc/shared-http';
import { parseXml, validateOmanual } from '@rc/shared-http/testing';
import { DEMO_ACCOUNTS, startTestApi, testArchiveBuild, type TestApi } from './support/test-api.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const registerTypescript = fileURLToPath(new URL('../../../libs/archive/http/src/testing/register-typescript.mjs', import.meta.url));
const cliEntry = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

interface Download {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

const isMedia = (name: string) => name.startsWith('media/');

/** The documents of a ZIP (every file but the media files), as text by name. */
async function unzip(zip: Buffer): Promise<Map<string, string>> {
  return new Map((await readZip(zip)).filter(({ name }) => !isMedia(name)).map(({ name, data }) => [name, data.toString('utf8')]));
}

/** Waits until `check` answers something truthy. */
async function eventually<T>(what: string, check: () => Promise<T>, ms = 60_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; ) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether a process of this id exists. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

// Whole archives (megabytes, with their pictures) are compared by digest: Jest's deep equality
// walks a Buffer byte by byte, for seconds, while the client's idle keep-alive connection expires.

describe('the offline oManual archive', () => {
  let api: TestApi;
  let dir: string;
  let mediaDir: string;
  /** The media files of the first build. */
  let mediaFiles = 0;
  let aliceToken = '';
  const ids = { deleted: 0, madePrivate: 0, draft: 0 };

  const download = async (path = '/archives/omanual', headers: Record<string, string> = {}, method = 'GET'): Promise<Download> => {
    const res = await fetch(`${api.origin}/api/2.0${path}`, { method, headers });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  };

  async function cli(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      env: { DATABASE_URL: api.db.url, ARCHIVE_DIR: dir, MEDIA_DIR: mediaDir, LOG_LEVEL: 'silent' },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      readLine: async () => '',
    };
    return { code: await runCli(argv, io), out, err };
  }

  const files = async () => (await readdir(dir)).sort();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archives-'));
    mediaDir = await mkdtemp(join(tmpdir(), 'archives-media-'));
    // The media jobs run here: the demo pictures' sizes are made before the archive packs them.
    api = await startTestApi({ ARCHIVE_DIR: dir, ARCHIVE_CHECK_SECONDS: '0', MEDIA_DIR: mediaDir, MEDIA_WORKER_CONCURRENCY: '2' });
    aliceToken = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    // A guide deleted, and one published then made private: neither may be in the archive.
    const create = async (title: string) => {
      const res = await api.request('POST', '/guides', { token: aliceToken, body: { category: 'iPhone 12', type: 'repair', title, public: true } });
      expect(res.status).toBe(201);
      return res.body as { guideid: number; revisionid: number };
    };
    const deleted = await create('Soon deleted guide');
    expect((await api.request('DELETE', `/guides/${deleted.guideid}?revisionid=${deleted.revisionid}`, { token: aliceToken })).status).toBe(204);
    const hidden = await create('Soon private guide');
    expect((await api.request('DELETE', `/guides/${hidden.guideid}/public?revisionid=${hidden.revisionid}`, { token: aliceToken })).status).toBe(200);
    ids.deleted = deleted.guideid;
    ids.madePrivate = hidden.guideid;
    ids.draft = (await api.sql<{ id: number }>(`SELECT id FROM guides WHERE title LIKE '%(draft)%'`))[0]!.id;
    const processing = async () => (await api.sql<{ n: number }>(`SELECT count(*)::int AS n FROM media_images WHERE status = 'processing' AND purged_at IS NULL`))[0]!.n;
    await eventually("the demo pictures' sizes", async () => (await processing()) === 0, 170_000);
  }, 180_000);
  afterAll(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
    await rm(mediaDir, { recursive: true, force: true });
  });

  it('answers 404 with a clear message, and an empty listing, before any build', async () => {
    const res = await api.request('GET', '/archives/omanual');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body).toEqual({ error: true, message: expect.stringContaining('npm run cli -- archive:build') });
    // This server's scheduled builds are off: the answer says so rather than promising a build.
    expect(res.body.message).toMatch(/scheduled builds are off in this process \(ARCHIVE_CHECK_SECONDS=0\)/);
    expect((await api.request('GET', '/archives')).body).toEqual([]);
  });

  describe('built from the demo data by `npm run cli -- archive:build`', () => {
    let zip: Buffer;
    let entries: Map<string, string>;
    let etag: string;

    beforeAll(async () => {
      const run = await cli(['archive:build']);
      expect(run).toMatchObject({ code: 0 });
      expect(run.out[0]).toMatch(/^built omanual-\d{8}T\d{9}Z\.zip: 5 guides, \d+ categories, [1-9]\d* media files, [\d.]+ MiB in \d+s$/);
      expect(run.out[1]).toMatch(/^peak RSS: \d+(\.\d)? MiB$/);
      mediaFiles = Number(/, (\d+) media files,/.exec(run.out[0]!)![1]);
      // Progress on standard error: plain lines when it is not a terminal.
      if (!process.stderr.isTTY) expect(run.err.at(-1)).toMatch(/^archive: (\d+)\/\1 documents \(100%\), done in \d+s$/);
      const res = await download();
      expect(res.status).toBe(200);
      zip = res.body;
      etag = res.headers.get('etag')!;
      entries = await unzip(zip);
    });

    it('is served with its type, name, a strong ETag (its SHA-256) and Last-Modified', async () => {
      const res = await download();
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="?omanual-\d{8}T\d{9}Z\.zip"?$/);
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(etag).toBe(`"sha256-${sha256(zip)}"`);
      expect(Number(res.headers.get('content-length'))).toBe(zip.length);
      expect(new Date(res.headers.get('last-modified')!).getTime()).toBeLessThanOrEqual(Date.now());
    });

    it('holds every public guide and nothing private or deleted', async () => {
      const expected = await api.sql<{ id: number; title: string }>('SELECT id, title FROM guides WHERE is_public AND deleted_at IS NULL ORDER BY id');
      const guideFiles = [...entries.keys()].filter((name) => name.endsWith('/guide.xml')).sort();
      expect(guideFiles).toEqual(expected.map((g) => guidePath(g.id, g.title)).sort());
      for (const id of [ids.deleted, ids.madePrivate, ids.draft]) {
        expect(guideFiles.some((name) => name.endsWith(`-${id}/guide.xml`))).toBe(false);
        expect([...entries.values()].some((xml) => xml.includes(`<guide id="${id}"`) || xml.includes(`<prerequisite id="${id}"`))).toBe(false);
      }
    });

    it('holds one document per category and the manifest, every path in them pointing at a file of the archive', async () => {
      const categories = await api.sql<{ id: number; title: string }>(`SELECT id, title FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL`);
      const categoryFiles = [...entries.keys()].filter((name) => !name.includes('/') && name !== MANIFEST_PATH).sort();
      expect(categoryFiles).toEqual(categories.map((c) => categoryPath(c.id, c.title)).sort());
      expect(entries.size).toBe(1 + categoryFiles.length + [...entries.keys()].filter((n) => n.endsWith('/guide.xml')).length);

      const manifest = parseXml(entries.get(MANIFEST_PATH)!);
      const listed = Array.from(manifest.getElementsByTagName('path')).map((p) => p.textContent!);
      const documents = Array.from(manifest.getElementsByTagName('document')).map((d) => d.textContent!);
      expect(listed.sort()).toEqual([...entries.keys()].filter((n) => n.endsWith('/guide.xml')).sort());
      expect(documents.sort()).toEqual(categoryFiles);

      for (const [name, xml] of entries) {
        const doc = parseXml(xml);
        for (const path of Array.from(doc.getElementsByTagName('path')).map((p) => p.textContent!)) {
          const target = name.includes('/') ? join(name, '..', path) : path;
          expect({ in: name, path, exists: entries.has(target) }).toEqual({ in: name, path, exists: true });
        }
      }
      // A category lists its guides, all of them, with paths into the archive.
      const iphone = parseXml(entries.get(categoryFiles.find((n) => n.startsWith('iPhone-12-'))!)!);
      expect(Array.from(iphone.getElementsByTagName('title')).map((t) => t.textContent)).toEqual(
        expect.arrayContaining(['iPhone 12', 'iPhone 12 Battery Replacement', 'iPhone 12 Opening Procedure']),
      );
    });

    it('validates every document strictly against its schema (no extra attributes)', async () => {
      const guides = [...entries].filter(([name]) => name.endsWith('/guide.xml')).map(([name, xml]) => ({ name, xml }));
      const categories = [...entries].filter(([name]) => !name.includes('/') && name !== MANIFEST_PATH).map(([name, xml]) => ({ name, xml }));
      expect(guides.length).toBeGreaterThanOrEqual(5);
      expect(categories.length).toBeGreaterThan(5);
      for (const { xml } of [...guides, ...categories]) expect(xml).not.toMatch(/_raw=/);
      expect(await validateOmanual('guide', guides)).toEqual({ valid: true, errors: [] });
      expect(await validateOmanual('category', categories)).toEqual({ valid: true, errors: [] });
    });

    it('holds the same guide the API answers in XML, prerequisites referenced by path instead of inlined', async () => {
      const battery = (await api.sql<{ id: number; title: string }>(`SELECT id, title FROM guides WHERE title = 'iPhone 12 Battery Replacement'`))[0]!;
      const archived = parseXml(entries.get(guidePath(battery.id, battery.title))!);
      const served = parseXml((await api.request('GET', `/guides/${battery.id}?type=XML&excludePrerequisiteSteps`)).text);
      const lines = (doc: ReturnType<typeof parseXml>) => Array.from(doc.getElementsByTagName('line')).map((l) => [l.getAttribute('bullet'), l.textContent]);
      expect(lines(archived)).toEqual(lines(served));
      expect(archived.getElementsByTagName('prerequisite')[0]!.getElementsByTagName('path')[0]!.textContent).toMatch(/^\.\.\/iPhone-12-Opening-Procedure-\d+\/guide\.xml$/);
    });

    it('packs the images its documents show under media/ (each file once, JPEGs of their size), the documents pointing at them by relative path', async () => {
      const all = (await readZip(zip)).map(({ name, data }) => [name, data] as const);
      const media = new Map(all.filter(([name]) => isMedia(name)));
      // Each file once, however many documents show it (the demo categories share their guides' pictures).
      expect(media.size).toBe(all.filter(([name]) => isMedia(name)).length);
      expect(media.size).toBeGreaterThan(0);
      for (const name of media.keys()) expect(name).toMatch(/^media\/[A-Za-z0-9]{16}\.(thumbnail|standard|medium|large)\.jpg$/);

      // A demo guide: its picture (drawn at 800×600) in the four sizes offline clients show.
      const battery = (await api.sql<{ id: number; title: string }>(`SELECT id, title FROM guides WHERE title = 'iPhone 12 Battery Replacement'`))[0]!;
      const name = guidePath(battery.id, battery.title);
      const doc = parseXml(entries.get(name)!);
      // The guide's own image comes first in the document (steps and prerequisites follow).
      const image = doc.getElementsByTagName('image')[0]!;
      const expected = { thumbnail: [96, 72], standard: [300, 225], medium: [592, 444], large: [800, 600] };
      for (const [size, [width, height]] of Object.entries(expected)) {
        const ref = image.getAttribute(size)!;
        expect(ref).toMatch(new RegExp(`^\\.\\./media/[A-Za-z0-9]{16}\\.${size}\\.jpg$`));
        const file = media.get(join(name, '..', ref));
        expect({ size, packed: !!file }).toEqual({ size, packed: true });
        expect(file!.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
        expect(await sharp(file!).metadata()).toMatchObject({ format: 'jpeg', width, height });
      }
      // The sizes not packed stay the online files: the mini, and the original as the element's text.
      expect(image.getAttribute('mini')).toMatch(/^http:\/\/.+\/igi\/[A-Za-z0-9]{16}\.mini$/);
      expect(image.textContent).toMatch(/^http:\/\/.+\/igi\/[A-Za-z0-9]{16}\.full$/);
      // Its steps' pictures too.
      const stepImages = Array.from(doc.getElementsByTagName('media')).flatMap((m) => Array.from(m.getElementsByTagName('image')));
      expect(stepImages.length).toBeGreaterThan(0);
      for (const step of stepImages) expect(media.has(join(name, '..', step.getAttribute('standard')!))).toBe(true);

      // Every relative image reference of every document resolves to a packed file, and every packed file is referenced.
      const referenced = new Set<string>();
      for (const [doc, xml] of entries) {
        for (const element of Array.from(parseXml(xml).getElementsByTagName('image'))) {
          for (const size of ['mini', 'thumbnail', 'standard', 'medium', 'large']) {
            const ref = element.getAttribute(size);
            if (!ref || /^https?:/.test(ref)) continue;
            const target = doc.includes('/') ? join(doc, '..', ref) : ref;
            expect({ doc, ref, packed: media.has(target) }).toEqual({ doc, ref, packed: true });
            referenced.add(target);
          }
        }
      }
      // A category's own picture, from the root.
      const iphone = parseXml([...entries].find(([n]) => n.startsWith('iPhone-12-') && !n.includes('/'))![1]);
      const categoryImage = iphone.getElementsByTagName('image')[0]!;
      expect(categoryImage.getAttribute('standard')).toMatch(/^media\//);

      // The manifest lists the media files, with their type, and each guide's thumbnail is a packed file.
      const manifest = parseXml(entries.get(MANIFEST_PATH)!);
      const files = Array.from(manifest.getElementsByTagName('file'));
      expect(files.map((f) => f.textContent).sort()).toEqual([...media.keys()].sort());
      expect(new Set(files.map((f) => f.getAttribute('type')))).toEqual(new Set(['image/jpeg']));
      for (const thumbnail of Array.from(manifest.getElementsByTagName('thumbnail'))) {
        expect(media.has(thumbnail.textContent!)).toBe(true);
        referenced.add(thumbnail.textContent!);
      }
      expect([...media.keys()].filter((n) => !referenced.has(n))).toEqual([]);
    });

    it('answers conditional requests: If-None-Match and If-Modified-Since give 304', async () => {
      const first = await download();
      expect((await download('/archives/omanual', { 'If-None-Match': etag })).status).toBe(304);
      expect((await download('/archives/omanual', { 'If-None-Match': '"something-else"' })).status).toBe(200);
      expect((await download('/archives/omanual', { 'If-Modified-Since': first.headers.get('last-modified')! })).status).toBe(304);
    });

    it('resumes with Range: parts put back together are the file; If-Range with another ETag sends it whole; 416 past the end', async () => {
      const head = await download('/archives/omanual', { Range: 'bytes=0-99' });
      expect(head.status).toBe(206);
      expect(head.headers.get('content-range')).toBe(`bytes 0-99/${zip.length}`);
      expect(head.body).toEqual(zip.subarray(0, 100));
      const rest = await download('/archives/omanual', { Range: 'bytes=100-', 'If-Range': etag });
      expect(rest.status).toBe(206);
      expect(rest.headers.get('content-range')).toBe(`bytes 100-${zip.length - 1}/${zip.length}`);
      expect(sha256(Buffer.concat([head.body, rest.body]))).toBe(sha256(zip));

      const changed = await download('/archives/omanual', { Range: 'bytes=100-', 'If-Range': '"sha256-stale"' });
      expect(changed.status).toBe(200);
      expect(sha256(changed.body)).toBe(sha256(zip));

      const beyond = await download('/archives/omanual', { Range: `bytes=${zip.length}-` });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${zip.length}`);
      expect(JSON.parse(beyond.body.toString())).toEqual({ error: true, message: 'Range not satisfiable' });
    });

    it('answers HEAD with the headers only, and lists the archive', async () => {
      const head = await download('/archives/omanual', {}, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(etag);
      expect(head.body.length).toBe(0);
      const list = await api.request('GET', '/archives');
      expect(list.body).toEqual([
        {
          name: expect.stringMatching(/^omanual-\d{8}T\d{9}Z\.zip$/),
          url: expect.stringMatching(/\/api\/2\.0\/archives\/omanual\/omanual-\d{8}T\d{9}Z\.zip$/),
          size: zip.length,
          built_date: expect.any(Number),
          etag,
          guides: 5,
          categories: expect.any(Number),
          changes_since: expect.any(Number),
          latest: true,
        },
      ]);
      const byName = await download(`/archives/omanual/${list.body[0].name}`);
      expect(byName.status).toBe(200);
      expect(sha256(byName.body)).toBe(sha256(zip));
      for (const bad of ['nope.zip', '..%2F..%2Fetc%2Fpasswd', `.${list.body[0].name}`]) {
        const res = await api.request('GET', `/archives/omanual/${bad}`);
        expect({ bad, status: res.status }).toEqual({ bad, status: 404 });
      }
    });
  });

  describe('rebuilds', () => {
    it('the scheduler rebuilds only when the content changed; older archives stay downloadable, the newest three are kept', async () => {
      const scheduler = api.running.app.get(ArchiveScheduler);
      const before = (await api.request('GET', '/archives')).body as { name: string; etag: string }[];
      await scheduler.runOnce();
      expect((await api.request('GET', '/archives')).body).toEqual(before);

      const guide = (await api.sql<{ id: number; revisionid: number }>(`SELECT id, revisionid FROM guides WHERE title = 'Coffee Maker Descaling'`))[0]!;
      const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
      let revision = guide.revisionid;
      for (let i = 1; i <= 3; i++) {
        const res = await api.request('PATCH', `/guides/${guide.id}?revisionid=${revision}`, { token: admin, body: { summary: `Descale it, take ${i}.` } });
        expect(res.status).toBe(200);
        revision = res.body.revisionid;
        await scheduler.runOnce();
      }
      const after = (await api.request('GET', '/archives')).body as { name: string; etag: string; latest: boolean }[];
      expect(after).toHaveLength(3);
      expect(after.map((a) => a.latest)).toEqual([true, false, false]);
      expect(after.map((a) => a.name)).not.toContain(before[0]!.name);
      const latest = await unzip((await download()).body);
      expect([...latest.values()].some((xml) => xml.includes('Descale it, take 3.'))).toBe(true);
      const older = await unzip((await download(`/archives/omanual/${after[1]!.name}`)).body);
      expect([...older.values()].some((xml) => xml.includes('Descale it, take 2.'))).toBe(true);
      expect((await files()).filter((f) => f.endsWith('.zip'))).toHaveLength(3);
      // Each build starts a child process (from the TypeScript sources here): seconds each.
    }, 240_000);

    it('a fresh server builds its first archive at start, in the background, and its 404s say when one will exist', async () => {
      const freshDir = await mkdtemp(join(tmpdir(), 'archives-first-'));
      // The interval is ten minutes: only the start's own build can make the archive within the test.
      const fresh = await startTestApi({ ARCHIVE_DIR: freshDir, ARCHIVE_CHECK_SECONDS: '600' });
      try {
        const messages: string[] = [];
        const deadline = Date.now() + 120_000;
        let status = 0;
        while (Date.now() < deadline) {
          const res = await fresh.request('GET', '/archives/omanual');
          status = res.status;
          if (status !== 404) break;
          messages.push(res.body.message);
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(status).toBe(200);
        for (const message of messages) expect(message).toMatch(/^No offline archive has been built yet: (the first one is being built|the server builds one when it finds the content changed, next at \d{4}-)/);
        expect(fresh.logs.some((l) => l['msg'] === 'no archive yet: building the first one in the background')).toBe(true);
        // Built in a child process, which has ended.
        const built = (await eventually('the build to be logged', async () => fresh.logs.find((l) => l['msg'] === 'archive built')))!;
        expect(built).toMatchObject({ pid: expect.any(Number), peakRssMb: expect.any(Number) });
        expect(built['pid']).not.toBe(process.pid);
        expect(isRunning(built['pid'] as number)).toBe(false);
      } finally {
        await fresh.close();
        await rm(freshDir, { recursive: true, force: true });
      }
    }, 180_000);

    it('a scheduled build runs in a child process: the schedule (and so the 404) tells how far it is, and stopping kills it and removes its partial file', async () => {
      const scheduler = api.running.app.get(ArchiveScheduler);
      const builder = api.running.app.get(ArchiveBuilder);
      const heldDir = await mkdtemp(join(tmpdir(), 'archives-held-'));
      // A previous archive: the latest one, recorded as built from older content, so a build is due.
      const previous = (await new ArchiveStore(dir).latest())!;
      await copyFile(previous.path, join(heldDir, previous.name));
      const sidecar = JSON.parse(await readFile(`${previous.path}.json`, 'utf8')) as Record<string, unknown>;
      await writeFile(join(heldDir, `${previous.name}.json`), JSON.stringify({ ...sidecar, contentVersion: 'older' }));
      const store = new ArchiveStore(heldDir);
      const spec = { ...testArchiveBuild({ DATABASE_URL: api.db.url, ARCHIVE_DIR: heldDir, MEDIA_DIR: mediaDir, LOG_LEVEL: 'silent' }), args: ['archive:build'], maxOldSpaceMb: 256 };
      // The child holds after its third document, until it is killed.
      const probe = new ArchiveScheduler(builder, store, { info: () => undefined, error: () => undefined } as never, (options) => buildInChild(spec, store, { ...options, holdAfter: 3 }));
      try {
        expect(probe.schedule()).toEqual({ state: 'off' });
        const check = probe.runOnce();
        const held = (await eventually('the child to hold after 3 documents', async () => {
          const schedule = probe.schedule();
          return schedule.state === 'building' && schedule.done === 3 ? schedule : null;
        }))!;
        expect(held).toEqual({ state: 'building', done: 3, total: expect.any(Number), eta: expect.any(String) });
        expect(ArchiveNotBuiltError.when(held)).toMatch(/^the first one is being built \(3 of \d+ documents written, about .+ left\)/);
        const pid = probe.buildPid!;
        expect(pid).toEqual(expect.any(Number));
        expect(pid).not.toBe(process.pid);
        expect(isRunning(pid)).toBe(true);
        // The child writes the partial file (named by its pid), not this process.
        expect((await readdir(heldDir)).filter((f) => f.endsWith('.partial'))).toEqual([expect.stringMatching(new RegExp(`^\\.omanual-${pid}-`))]);

        await probe.stop();
        await check;
        expect(isRunning(pid)).toBe(false);
        expect(probe.schedule()).toEqual({ state: 'off' });
        expect(probe.buildPid).toBeNull();
        // Nothing of the killed build is left; the previous archive is still the one served.
        expect((await readdir(heldDir)).sort()).toEqual([previous.name, `${previous.name}.json`]);
        expect((await store.latest())!.etag).toBe(previous.etag);
      } finally {
        await probe.stop();
        await rm(heldDir, { recursive: true, force: true });
      }
      expect(scheduler.schedule()).toEqual({ state: 'off' });
    }, 90_000);

    it('the server checks on a timer (ARCHIVE_CHECK_SECONDS) and builds an archive without any request', async () => {
      const timerDir = await mkdtemp(join(tmpdir(), 'archives-timer-'));
      const timed = await startTestApi({ ARCHIVE_DIR: timerDir, ARCHIVE_CHECK_SECONDS: '1' });
      try {
        // The file is renamed into place before the build's log line is written: wait for both.
        const built = () => timed.logs.some((l) => l['msg'] === 'archive built');
        const deadline = Date.now() + 120_000;
        while (Date.now() < deadline && !(built() && (await readdir(timerDir)).some((f) => f.endsWith('.zip')))) await new Promise((r) => setTimeout(r, 200));
        expect((await readdir(timerDir)).filter((f) => f.endsWith('.zip'))).toHaveLength(1);
        expect(built()).toBe(true);
        expect((await timed.request('GET', '/archives/omanual')).status).toBe(200);
      } finally {
        await timed.close();
        await rm(timerDir, { recursive: true, force: true });
      }
    }, 180_000);
  });

  describe('crash safety', () => {
    const latestEtag = async () => (await download('/archives/omanual', {}, 'HEAD')).headers.get('etag');

    it('a build interrupted midway leaves the previous archive served, and its partial file never listed', async () => {
      const previous = await latestEtag();
      const listed = (await api.request('GET', '/archives')).body;
      const builder = api.running.app.get(ArchiveBuilder);
      let checkedMidway = false;
      await expect(
        builder.build({
          afterDocument: async (written) => {
            if (written !== 3) return;
            // Mid-build: the partial file is on disk, but what is served and listed is unchanged.
            expect((await files()).some((f) => f.endsWith('.partial'))).toBe(true);
            expect(await latestEtag()).toBe(previous);
            expect((await api.request('GET', '/archives')).body).toEqual(listed);
            checkedMidway = true;
            throw new Error('simulated crash');
          },
        }),
      ).rejects.toThrow('simulated crash');
      expect(checkedMidway).toBe(true);
      expect(await latestEtag()).toBe(previous);
      expect((await files()).filter((f) => f.startsWith('.'))).toEqual([]);
    });

    it('a build process killed (SIGKILL) mid-write leaves the previous archive whole and served; a later build clears the leftovers', async () => {
      // Enough guides for the build to take a while, so the kill lands inside it.
      await api.sql(
        `INSERT INTO guides (id, revisionid, author_id, contributor_ids, title, category, subject, type, difficulty, summary, introduction, conclusion,
                             time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags, is_public, locale, created_at, modified_at, published_at)
         SELECT nextval('guides_id_seq'), nextval('guide_revision_seq'), g.author_id, g.contributor_ids, g.title || ' copy ' || n, g.category, g.subject, g.type,
                g.difficulty, g.summary, repeat(g.introduction || E'\\n\\n', 40), g.conclusion, g.time_required_min, g.time_required_max, g.image_id, g.parts, g.tools,
                '{}', '{}', true, g.locale, g.created_at, now(), now()
           FROM guides g CROSS JOIN generate_series(1, 1500) AS n WHERE g.title = 'iPhone 12 Battery Replacement'`,
      );
      const previous = await download();
      const previousFiles = await files();

      const child = spawn(process.execPath, ['--import', registerTypescript, cliEntry, 'archive:build'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: api.db.url, ARCHIVE_DIR: dir, MEDIA_DIR: mediaDir, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
      // Kill it once it has written part of the archive (some progress reported, the partial file on disk).
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !/archive: [1-9]\d*\/\d+ documents/.test(stderr)) await new Promise((r) => setTimeout(r, 50));
      expect(stderr).toMatch(/archive: [1-9]\d*\/\d+ documents \(\d+%\)/);
      const partials = (await files()).filter((f) => f.endsWith('.partial'));
      expect(partials).toHaveLength(1);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      // The same archive is served, whole, and nothing new is listed; the partial is left behind, unlisted.
      const after = await download();
      expect(after.headers.get('etag')).toBe(previous.headers.get('etag'));
      expect(sha256(after.body)).toBe(sha256(previous.body));
      expect(`"sha256-${sha256(after.body)}"`).toBe(after.headers.get('etag'));
      expect((await files()).filter((f) => !f.startsWith('.'))).toEqual(previousFiles.filter((f) => !f.startsWith('.')));
      expect((await api.request('GET', '/archives')).body.some((a: { name: string }) => a.name.includes('partial'))).toBe(false);

      // A later build (here, hours later for the leftover) removes it and publishes a complete archive.
      const old = new Date(Date.now() - 7 * 3600 * 1000);
      for (const f of await files()) if (f.startsWith('.')) await utimes(join(dir, f), old, old);
      const rebuilt = await cli(['archive:build']);
      expect(rebuilt.code).toBe(0);
      expect(rebuilt.out[0]).toMatch(/: 1505 guides,/);
      // The 1500 copies show the battery guide's picture: its files are packed once.
      expect(rebuilt.out[0]).toContain(`, ${mediaFiles} media files,`);
      expect((await files()).filter((f) => f.startsWith('.'))).toEqual([]);
      const fresh = await download();
      expect(fresh.headers.get('etag')).not.toBe(previous.headers.get('etag'));
      const entries = await unzip(fresh.body);
      expect([...entries.keys()].filter((n) => n.endsWith('/guide.xml'))).toHaveLength(1505);
    }, 180_000);
  });
});
