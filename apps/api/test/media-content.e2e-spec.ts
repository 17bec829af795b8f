import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { renditionDimensions, type RenditionName } from '@rc/media-domain';
import { plainJpeg } from './support/media-files.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

const BASE = 'https://repair.example';
const SIZES = ['mini', 'thumbnail', '140x105', '200x150', 'standard', '440x330', 'medium', 'large', 'huge'];
type ImageObject = Record<string, string | number>;

const line = (text: string) => ({ text, bullet: 'black', level: 0 });
const fieldsOf = (res: ApiResponse) => ((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field);

/** Polls until `done` holds for what `read` answers (background jobs make the sizes). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 100_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; ) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still not there after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const complete = (image: ImageObject | null | undefined) => !!image && SIZES.every((size) => typeof image[size] === 'string');

describe('media shown in content', () => {
  let api: TestApi;
  let mediaDir: string;
  const token = { alice: '', bob: '', admin: '' };

  /** POST /user/media/images as this user: the new image's Image object. */
  const upload = async (who: keyof typeof token, file: string, bytes: Buffer): Promise<ImageObject> => {
    const res = await api.raw('POST', `/api/2.0/user/media/images?file=${encodeURIComponent(file)}`, { headers: { Authorization: `api ${token[who]}` }, body: bytes });
    expect(res.status).toBe(200);
    return res.body.image;
  };

  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'rc-media-content-e2e-'));
    api = await startTestApi({ PUBLIC_BASE_URL: BASE, MEDIA_DIR: mediaDir, MEDIA_WORKER_CONCURRENCY: '2' });
    token.alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    token.bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
    token.admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
  });

  afterAll(async () => {
    await api?.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  it('gives the demo content pictures everywhere: guides, every step, categories and users', async () => {
    const guides = await api.sql<{ id: number; image_id: number | null }>('SELECT id, image_id FROM guides WHERE author_id IN (SELECT id FROM users WHERE email = ANY($1))', [
      [DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.bob.email],
    ]);
    const demo = guides.filter((g) => g.id <= 6);
    expect(demo.length).toBe(6);
    for (const { id } of demo) {
      const body = (await api.request('GET', `/guides/${id}`, { token: token.admin })).body;
      expect([id, body.image?.id]).toEqual([id, expect.any(Number)]);
      expect(body.steps.length).toBeGreaterThan(0);
      for (const step of body.steps) expect([id, step.stepid, step.media.type, step.media.data.length]).toEqual([id, step.stepid, 'image', 1]);
    }
    const categories = (await api.request('GET', '/wikis/CATEGORY?limit=100')).body as { image: ImageObject | null; title: string }[];
    expect(categories.length).toBeGreaterThan(5);
    for (const category of categories) expect([category.title, category.image?.id]).toEqual([category.title, expect.any(Number)]);
    for (const account of Object.values(DEMO_ACCOUNTS)) {
      const [user] = await api.sql<{ id: number }>('SELECT id FROM users WHERE email = $1', [account.email]);
      expect([account.email, (await api.request('GET', `/users/${user!.id}`)).body.image?.id]).toEqual([account.email, expect.any(Number)]);
    }
    // Their sizes are made by the jobs: a category's picture gets every size, 800×600 drawn.
    const category = categories[0]!;
    const image = (
      await eventually(
        () => api.request('GET', `/media/images/${category.image!.id}`),
        (res) => complete(res.body?.image),
        'a demo picture with every size',
      )
    ).body;
    expect([image.width, image.height]).toEqual([800, 600]);
    const res = await fetch(api.origin + String(image.image.large).slice(BASE.length));
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 800, 600]);
  }, 120_000);

  it('shows an uploaded image in a guide step: every size served as an image of its size, the cached body rebuilt as sizes appear', async () => {
    const uploaded = await upload('alice', 'board.jpg', await plainJpeg(800, 600));
    const created = await api.request('POST', '/guides', { token: token.alice, body: { category: 'iPhone 12', type: 'repair', title: 'Pictured repair', public: true, image: uploaded.id } });
    expect(created.status).toBe(201);
    expect(created.body.image).toMatchObject({ id: uploaded.id, guid: uploaded.guid, original: uploaded.original });
    const guideid = created.body.guideid as number;
    const step = await api.request('POST', `/guides/${guideid}/steps`, { token: token.alice, body: { lines: [line('Lift the board')], media: { type: 'image', data: [uploaded.id] } } });
    expect(step.status).toBe(201);

    // Read back anonymously (the cached, read-model path): the sizes show up as the jobs make them.
    const body = (
      await eventually(
        () => api.request('GET', `/guides/${guideid}`),
        (res) => res.status === 200 && complete(res.body.image) && complete(res.body.steps[0]?.media.data[0]),
        'the guide body with every size',
      )
    ).body;
    const shown = body.steps[0].media.data[0] as ImageObject;
    expect(body.steps[0].media.type).toBe('image');
    expect(shown).toEqual(body.image);
    expect(shown).toMatchObject({ id: uploaded.id, guid: uploaded.guid });
    expect(Object.keys(shown).sort()).toEqual(['guid', 'id', 'original', ...SIZES].sort());

    for (const size of [...SIZES, 'original']) {
      const url = String(shown[size]);
      expect(url.startsWith(`${BASE}/api/2.0/igi/${uploaded.guid}`)).toBe(true);
      const res = await fetch(api.origin + url.slice(BASE.length));
      expect([size, res.status, res.headers.get('content-type')]).toEqual([size, 200, 'image/jpeg']);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([size, meta.width, meta.height]).toEqual([size, ...Object.values(renditionDimensions(800, 600, size as RenditionName))]);
    }

    // The summaries show the same Image object; so does an authenticated read.
    const mine = await api.request('GET', '/user/guides?limit=200', { token: token.alice, appId: DEMO_APP_ID });
    expect(mine.body.find((g: { guideid: number }) => g.guideid === guideid).image).toEqual(shown);
    expect((await api.request('GET', `/guides/${guideid}`, { token: token.bob })).body.steps[0].media.data[0]).toEqual(shown);
  }, 120_000);

  it('keeps serving an image removed from its library while a guide shows it, and lets others show it since public content does', async () => {
    const uploaded = await upload('alice', 'kept.jpg', await plainJpeg(300, 200));
    const unused = await upload('alice', 'gone.jpg', await plainJpeg(300, 200));
    const guide = await api.request('POST', '/guides', { token: token.alice, body: { category: 'iPhone 12', type: 'repair', title: 'Kept picture', public: true, image: uploaded.id } });
    expect(guide.status).toBe(201);
    await eventually(() => api.request('GET', `/media/images/${uploaded.id}`, { token: token.alice }), (res) => complete(res.body?.image), 'the sizes');
    expect((await api.request('DELETE', `/user/media/images/${uploaded.id},${unused.id}`, { token: token.alice })).status).toBe(204);
    // The purge jobs ran: the unused image's files are gone; the one a guide shows stays served.
    const purged = (id: number) => api.sql<{ purged: boolean }>('SELECT purged_at IS NOT NULL AS purged FROM media_images WHERE id = $1', [id]);
    await eventually(() => purged(unused.id as number), (rows) => rows[0]!.purged, 'the unused image purged');
    expect(await purged(uploaded.id as number)).toEqual([{ purged: false }]);
    expect((await fetch(api.origin + String(uploaded.original).slice(BASE.length))).status).toBe(200);
    expect((await api.request('GET', `/guides/${guide.body.guideid}`)).body.image).toMatchObject({ id: uploaded.id });
    // Bob may show it too: a public guide shows it.
    const bobs = await api.request('POST', '/guides', { token: token.bob, body: { category: 'iPhone 12', type: 'repair', title: 'Borrowed picture', image: uploaded.id } });
    expect(bobs.status).toBe(201);
  }, 120_000);

  describe('an image that is not the writer’s is a 422 naming the field, and nothing is written', () => {
    let bobsImage: ImageObject;
    let guideid: number;

    beforeAll(async () => {
      bobsImage = await upload('bob', 'private.jpg', await plainJpeg(200, 200));
      guideid = (await api.request('POST', '/guides', { token: token.alice, body: { category: 'iPhone 12', type: 'repair', title: 'Refusing guide' } })).body.guideid;
    });

    it('guide image', async () => {
      const before = await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM guides');
      for (const image of [bobsImage.id, 99_999_999]) {
        const res = await api.request('POST', '/guides', { token: token.alice, body: { category: 'iPhone 12', type: 'repair', title: `Foreign ${image}`, image } });
        expect([res.status, fieldsOf(res)]).toEqual([422, ['image']]);
      }
      expect(await api.sql('SELECT count(*)::int AS n FROM guides')).toEqual(before);
      const current = (await api.request('GET', `/guides/${guideid}`, { token: token.alice })).body;
      const edit = await api.request('PATCH', `/guides/${guideid}?revisionid=${current.revisionid}`, { token: token.alice, body: { image: bobsImage.id } });
      expect([edit.status, fieldsOf(edit)]).toEqual([422, ['image']]);
      expect((await api.sql('SELECT image_id FROM guides WHERE id = $1', [guideid]))[0]).toEqual({ image_id: null });
    });

    it('step media', async () => {
      const mine = await upload('alice', 'mine.jpg', await plainJpeg(200, 200));
      const res = await api.request('POST', `/guides/${guideid}/steps`, { token: token.alice, body: { lines: [line('x')], media: { type: 'image', data: [mine.id, bobsImage.id, 99_999_999] } } });
      expect([res.status, fieldsOf(res)]).toEqual([422, ['media.data[1]', 'media.data[2]']]);
      expect(await api.sql('SELECT count(*)::int AS n FROM guide_steps WHERE guide_id = $1', [guideid])).toEqual([{ n: 0 }]);
    });

    it('wiki image (an admin too may not publish a user’s unshown upload)', async () => {
      for (const image of [bobsImage.id, 99_999_999]) {
        const res = await api.request('POST', '/wikis', { token: token.admin, body: { namespace: 'WIKI', title: `Foreign image ${image}`, image } });
        expect([res.status, fieldsOf(res)]).toEqual([422, ['image']]);
      }
      expect(await api.sql("SELECT count(*)::int AS n FROM wiki_pages WHERE title LIKE 'Foreign image%'")).toEqual([{ n: 0 }]);
      const own = await upload('admin', 'page.jpg', await plainJpeg(200, 200));
      const page = await api.request('POST', '/wikis', { token: token.admin, body: { namespace: 'WIKI', title: 'Own image page', image: own.id } });
      expect(page.status).toBe(201);
      expect(page.body.image).toMatchObject({ id: own.id, guid: own.guid, original: own.original });
    });

    it('user avatar (PATCH /user)', async () => {
      for (const image of [bobsImage.id, 99_999_999]) {
        const res = await api.request('PATCH', '/user', { token: token.alice, body: { image, location: 'Not written' } });
        expect([res.status, fieldsOf(res)]).toEqual([422, ['image']]);
      }
      const before = (await api.request('GET', '/user', { token: token.alice })).body;
      expect(before.location).not.toBe('Not written');
      const avatar = await upload('alice', 'avatar.jpg', await plainJpeg(200, 200));
      const res = await api.request('PATCH', '/user', { token: token.alice, body: { image: avatar.id } });
      expect(res.status).toBe(200);
      expect(res.body.image).toMatchObject({ id: avatar.id, guid: avatar.guid });
      const userid = res.body.userid as number;
      expect((await api.request('GET', `/users/${userid}`)).body.image).toMatchObject({ id: avatar.id });
      expect((await api.request('PATCH', '/user', { token: token.alice, body: { image: null } })).body.image).toBeNull();
    });
  });

  it('never lets an image name reach HTML unescaped', async () => {
    const name = '<img src=x onerror=alert(1)>.jpg';
    const uploaded = await upload('alice', name, await plainJpeg(120, 90));
    const guide = await api.request('POST', '/guides', {
      token: token.alice,
      body: { category: 'iPhone 12', type: 'repair', title: 'Named picture', public: true, image: uploaded.id, introduction: `[image|${name}] ${name}` },
    });
    expect(guide.status).toBe(201);
    const step = await api.request('POST', `/guides/${guide.body.guideid}/steps`, { token: token.alice, body: { lines: [line(`Caption: ${name}`)], media: { type: 'image', data: [uploaded.id] } } });
    expect(step.status).toBe(201);
    const read = await api.request('GET', `/guides/${guide.body.guideid}`);
    const rendered = [read.body.introduction_rendered, read.body.steps[0].lines[0].text_rendered].join('\n');
    expect(rendered).not.toContain('<img');
    expect(rendered).toContain('&lt;img');
    // The file name is data of JSON answers only, never of an HTML one.
    const library = await api.raw('GET', '/api/2.0/user/media/images', { headers: { Authorization: `api ${token.alice}` } });
    expect(library.headers.get('content-type')).toMatch(/^application\/json/);
    const xml = await api.raw('GET', `/api/2.0/guides/${guide.body.guideid}?type=XML`);
    expect(xml.status).toBe(200);
    expect(String(xml.body)).not.toContain('<img');
  });

});
