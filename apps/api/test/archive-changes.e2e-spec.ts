import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { readZip } from '@rc/archive-http/testing';
import { ArchiveBuilder, ArchivesController } from '@rc/archive-http';
import { categoryPath, guidePath, MANIFEST_PATH } from '@rc/shared-http';
import { parseXml, validateOmanual } from '@rc/shared-http/testing';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/** Every file of a ZIP by name. */
async function filesOf(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Map((await readZip(zip)).map(({ name, data }) => [name, data]));
}

interface Download {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

interface Guide {
  guideid: number;
  revisionid: number;
  title: string;
}

const now = () => Math.floor(Date.now() / 1000);

// Everything made before the test's `since` is moved a day into the past (its times, its
// revisions' and its tombstones'), so `since` (an hour ago) separates "before" from "after"
// without waiting for the clock, whatever second each write falls in.
describe('incremental offline archives and deletions in the lists (GET /archives/omanual?since=)', () => {
  let api: TestApi;
  let dir: string;
  let admin = '';
  let alice = '';
  let since = 0;
  const cat: Record<'root' | 'quiet' | 'a' | 'b' | 'm1' | 'm2' | 'e' | 'p2' | 'd' | 'n', { id: number; title: string }> = {} as never;
  const g: Record<'edited' | 'deleted' | 'hidden' | 'republished' | 'moved' | 'untouched' | 'draft' | 'created', Guide> = {} as never;

  const download = async (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Download> => {
    const res = await fetch(`${api.origin}/api/2.0${path}`, { method, headers });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  };

  const createCategory = async (key: keyof typeof cat, title: string, parent?: string) => {
    const res = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'CATEGORY', title, ...(parent ? { parent } : {}), contents: `About ${title}.` } });
    expect(res.status).toBe(201);
    cat[key] = { id: res.body.wikiid, title };
  };
  const createGuide = async (key: keyof typeof g, title: string, category: string, isPublic = true) => {
    const res = await api.request('POST', '/guides', { token: alice, body: { category, type: 'repair', title, public: isPublic } });
    expect(res.status).toBe(201);
    g[key] = { guideid: res.body.guideid, revisionid: res.body.revisionid, title };
  };
  const write = async (method: string, path: string, key: keyof typeof g, body?: unknown, status = 200) => {
    const res = await api.request(method, `${path}${path.includes('?') ? '&' : '?'}revisionid=${g[key].revisionid}`, { token: alice, body });
    expect({ path, status: res.status }).toEqual({ path, status });
    if (res.body?.revisionid) g[key].revisionid = res.body.revisionid;
    return res;
  };
  /** Moves every time recorded so far a day into the past (rows, revisions, tombstones). */
  const ageEverything = async () => {
    await api.sql(`UPDATE guides SET modified_at = modified_at - interval '1 day', created_at = created_at - interval '1 day'`);
    await api.sql(`UPDATE guide_revisions SET created_at = created_at - interval '1 day'`);
    await api.sql(`UPDATE guide_tombstones SET removed_at = removed_at - interval '1 day'`);
    await api.sql(`UPDATE wiki_pages SET modified_at = modified_at - interval '1 day', created_at = created_at - interval '1 day'`);
    await api.sql(`UPDATE wiki_revisions SET created_at = created_at - interval '1 day'`);
    await api.sql(`UPDATE wiki_tombstones SET removed_at = removed_at - interval '1 day'`);
  };
  const wikiRevision = async (title: string) => (await api.request('GET', `/wikis/CATEGORY/${encodeURIComponent(title)}`)).body.revisionid as number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-changes-'));
    api = await startTestApi({ ARCHIVE_DIR: dir, ARCHIVE_CHECK_SECONDS: '0' });
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);

    // Before: a small tree of categories of its own, and guides in them.
    await createCategory('root', 'Incremental Root');
    for (const [key, title] of [['quiet', 'Incremental Quiet'], ['a', 'Incremental A'], ['b', 'Incremental B'], ['m1', 'Incremental Move From'], ['m2', 'Incremental Move To'], ['e', 'Incremental Edited'], ['p2', 'Incremental Parent']] as const) {
      await createCategory(key, title, 'Incremental Root');
    }
    await createCategory('d', 'Incremental Doomed', 'Incremental Parent');
    await createGuide('edited', 'Incremental Edited Guide', 'Incremental A');
    await createGuide('deleted', 'Incremental Deleted Guide', 'Incremental A');
    await createGuide('hidden', 'Incremental Hidden Guide', 'Incremental B');
    await createGuide('republished', 'Incremental Republished Guide', 'Incremental A');
    await write('DELETE', `/guides/${g.republished.guideid}/public`, 'republished');
    await createGuide('moved', 'Incremental Moved Guide', 'Incremental Move From');
    await createGuide('untouched', 'Incremental Untouched Guide', 'Incremental Quiet');
    await createGuide('draft', 'Incremental Draft Guide', 'Incremental Quiet', false);

    // Everything so far: a day ago. `since`: an hour ago.
    await ageEverything();
    since = now() - 3600;

    // After: edit, delete, hide, publish again, move, create; a category edited, one deleted, one created.
    await write('PATCH', `/guides/${g.edited.guideid}`, 'edited', { summary: 'Edited after since.' });
    await write('DELETE', `/guides/${g.deleted.guideid}`, 'deleted', undefined, 204);
    await write('DELETE', `/guides/${g.hidden.guideid}/public`, 'hidden');
    await write('PUT', `/guides/${g.republished.guideid}/public`, 'republished', {});
    await write('PATCH', `/guides/${g.moved.guideid}`, 'moved', { category: 'Incremental Move To' });
    await write('DELETE', `/guides/${g.draft.guideid}`, 'draft', undefined, 204);
    const edited = await api.request('PATCH', `/wikis/CATEGORY/Incremental_Edited?revisionid=${await wikiRevision('Incremental Edited')}`, { token: admin, body: { contents: 'Edited after since.' } });
    expect(edited.status).toBe(200);
    const doomed = await api.request('DELETE', `/wikis/CATEGORY/Incremental_Doomed?revisionid=${await wikiRevision('Incremental Doomed')}`, { token: admin });
    expect(doomed.status).toBe(204);
    await createCategory('n', 'Incremental New', 'Incremental Parent');
    await createGuide('created', 'Incremental Created Guide', 'Incremental New');
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('tombstones', () => {
    it('are written in the transaction of the change: a rolled-back unpublish leaves none, a refused delete none', async () => {
      const db = new pg.Client({ connectionString: api.db.url });
      await db.connect();
      try {
        await db.query('BEGIN');
        await db.query('UPDATE guides SET is_public = false, modified_at = now() WHERE id = $1', [g.untouched.guideid]);
        expect((await db.query('SELECT reason FROM guide_tombstones WHERE guide_id = $1', [g.untouched.guideid])).rows).toEqual([{ reason: 'private' }]);
        await db.query('ROLLBACK');
        // Whatever writes the change: a row removed outright leaves a tombstone too; a page live again loses its own.
        await db.query('BEGIN');
        await db.query('DELETE FROM guides WHERE id = $1', [g.untouched.guideid]);
        expect((await db.query('SELECT reason, title FROM guide_tombstones WHERE guide_id = $1', [g.untouched.guideid])).rows).toEqual([{ reason: 'deleted', title: g.untouched.title }]);
        expect((await db.query('SELECT wiki_id FROM wiki_tombstones WHERE wiki_id = $1', [cat.d.id])).rows).toEqual([{ wiki_id: cat.d.id }]);
        await db.query('UPDATE wiki_pages SET deleted_at = NULL WHERE id = $1', [cat.d.id]);
        expect((await db.query('SELECT wiki_id FROM wiki_tombstones WHERE wiki_id = $1', [cat.d.id])).rows).toEqual([]);
        await db.query('ROLLBACK');
      } finally {
        await db.end();
      }
      expect(await api.sql('SELECT guide_id FROM guide_tombstones WHERE guide_id = $1', [g.untouched.guideid])).toEqual([]);

      // A delete with a stale revision is a 409 and records nothing.
      const stale = await api.request('DELETE', `/guides/${g.untouched.guideid}?revisionid=1`, { token: alice });
      expect(stale.status).toBe(409);
      expect(await api.sql('SELECT guide_id FROM guide_tombstones WHERE guide_id = $1', [g.untouched.guideid])).toEqual([]);
    });
  });

  describe('GET /guides?modifiedSince and GET /wikis/{namespace}?modifiedSince', () => {
    it('keep their plain list unless includeDeleted asks; with it, {guides, deleted} lists the guides deleted or made private since', async () => {
      const plain = await api.request('GET', `/guides?modifiedSince=${since}&limit=200`);
      expect(plain.status).toBe(200);
      expect(Array.isArray(plain.body)).toBe(true);
      const changedIds = [g.edited, g.republished, g.moved, g.created].map((x) => x.guideid).sort((x, y) => x - y);
      expect((plain.body as { guideid: number }[]).map((s) => s.guideid)).toEqual(changedIds);
      expect(Array.isArray((await api.request('GET', `/guides?modifiedSince=${since}&includeDeleted=0`)).body)).toBe(true);

      const res = await api.request('GET', `/guides?modifiedSince=${since}&includeDeleted&limit=200`);
      expect(res.status).toBe(200);
      expect(res.body.guides).toEqual(plain.body);
      expect(res.body.deleted).toEqual(
        [
          { guideid: g.deleted.guideid, title: g.deleted.title, category: 'Incremental A', reason: 'deleted', date: expect.any(Number) },
          { guideid: g.hidden.guideid, title: g.hidden.title, category: 'Incremental B', reason: 'private', date: expect.any(Number) },
        ].sort((x, y) => x.guideid - y.guideid),
      );
      for (const t of res.body.deleted) expect(t.date).toBeGreaterThanOrEqual(since);
      // The draft never was public; the republished guide is public again: neither is listed.
      expect(res.body.deleted.map((t: { guideid: number }) => t.guideid)).not.toContain(g.draft.guideid);
      expect(res.body.deleted.map((t: { guideid: number }) => t.guideid)).not.toContain(g.republished.guideid);
    });

    it('pages the deletions with the same limit and offset, and asks for modifiedSince', async () => {
      const first = await api.request('GET', `/guides?modifiedSince=${since}&includeDeleted&limit=1`);
      const second = await api.request('GET', `/guides?modifiedSince=${since}&includeDeleted&limit=1&offset=1`);
      const third = await api.request('GET', `/guides?modifiedSince=${since}&includeDeleted&limit=1&offset=2`);
      expect([first.body.deleted.length, second.body.deleted.length, third.body.deleted.length]).toEqual([1, 1, 0]);
      expect(first.body.deleted[0].guideid).toBeLessThan(second.body.deleted[0].guideid);
      expect(first.body.guides).toHaveLength(1);

      const missing = await api.request('GET', '/guides?includeDeleted');
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(/includeDeleted.*modifiedSince/);
    });

    it('lists the pages deleted since in the wiki lists', async () => {
      const plain = await api.request('GET', `/wikis/CATEGORY?modifiedSince=${since}&limit=200`);
      expect(Array.isArray(plain.body)).toBe(true);
      expect((plain.body as { title: string }[]).map((p) => p.title).sort()).toEqual(['Incremental Edited', 'Incremental New']);
      const res = await api.request('GET', `/wikis/CATEGORY?modifiedSince=${since}&includeDeleted&limit=200`);
      expect(res.status).toBe(200);
      expect(res.body.wikis).toEqual(plain.body);
      expect(res.body.deleted).toEqual([{ wikiid: cat.d.id, namespace: 'CATEGORY', title: 'Incremental Doomed', date: expect.any(Number) }]);
      expect((await api.request('GET', `/wikis/WIKI?modifiedSince=${since}&includeDeleted`)).body).toEqual({ wikis: [], deleted: [] });
      expect((await api.request('GET', '/wikis/CATEGORY?includeDeleted')).status).toBe(400);
    });

    it('documents both in the OpenAPI document', async () => {
      const doc = (await api.request('GET', '/docs-json')).body;
      const guides = doc.paths['/api/2.0/guides'].get;
      expect(guides.parameters.map((p: { name: string }) => p.name)).toContain('includeDeleted');
      expect(JSON.stringify(guides.responses['200'])).toContain('GuideChangesResponseDto');
      expect(doc.components.schemas.GuideTombstoneResponseDto.properties.reason.enum).toEqual(['deleted', 'private']);
      const wikis = doc.paths['/api/2.0/wikis/{namespace}'].get;
      expect(wikis.parameters.map((p: { name: string }) => p.name)).toContain('includeDeleted');
      expect(JSON.stringify(wikis.responses['200'])).toContain('WikiChangesResponseDto');
      const archive = doc.paths['/api/2.0/archives/omanual'].get;
      expect(archive.parameters.map((p: { name: string }) => p.name)).toContain('since');
    });
  });

  describe('the incremental archive', () => {
    let res: Download;
    let files: Map<string, Buffer>;
    let manifest: ReturnType<typeof parseXml>;

    beforeAll(async () => {
      res = await download(`/archives/omanual?since=${since}`);
      files = await filesOf(res.body);
      manifest = parseXml(files.get(MANIFEST_PATH)!.toString('utf8'));
    });

    it('is a ZIP built for the request, named after its times, with the time it is complete up to', () => {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      const until = Number(res.headers.get('x-archive-until'));
      expect(until).toBeGreaterThanOrEqual(since);
      expect(until).toBeLessThanOrEqual(now() - 60);
      expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="?omanual-changes-${since}-${until}\\.zip"?$`));
      expect(res.headers.get('etag')).toMatch(/^W\/"changes-\d+-[0-9a-f]{32}"$/);
      const changes = manifest.getElementsByTagName('changes')[0]!;
      expect([Number(changes.getAttribute('since')), Number(changes.getAttribute('until'))]).toEqual([since, until]);
    });

    it('holds exactly the guides changed since (edited, public again, moved, created), valid against the schema', async () => {
      const guideFiles = [...files.keys()].filter((n) => n.endsWith('/guide.xml')).sort();
      expect(guideFiles).toEqual([g.edited, g.republished, g.moved, g.created].map((x) => guidePath(x.guideid, x.title)).sort());
      expect(files.get(guidePath(g.edited.guideid, g.edited.title))!.toString('utf8')).toContain('Edited after since.');
      const listed = Array.from(manifest.getElementsByTagName('guides')[0]!.getElementsByTagName('guide')).map((e) => e.getElementsByTagName('path')[0]!.textContent).sort();
      expect(listed).toEqual(guideFiles);
      const docs = guideFiles.map((name) => ({ name, xml: files.get(name)!.toString('utf8') }));
      expect(await validateOmanual('guide', docs)).toEqual({ valid: true, errors: [] });
    });

    it('holds exactly the categories whose documents changed: edited, created, their guides changed, a child created or deleted', async () => {
      const categoryFiles = [...files.keys()].filter((n) => !n.includes('/') && n !== MANIFEST_PATH).sort();
      const expected = (['a', 'b', 'm1', 'm2', 'e', 'p2', 'n'] as const).map((k) => categoryPath(cat[k].id, cat[k].title)).sort();
      expect(categoryFiles).toEqual(expected);
      const documents = Array.from(manifest.getElementsByTagName('documents')[0]!.getElementsByTagName('document')).map((d) => d.textContent).sort();
      expect(documents).toEqual(expected);
      const docs = categoryFiles.map((name) => ({ name, xml: files.get(name)!.toString('utf8') }));
      expect(await validateOmanual('category', docs)).toEqual({ valid: true, errors: [] });
      // A category lists its guides as of now: the moved guide in its new category only.
      expect(files.get(categoryPath(cat.m2.id, cat.m2.title))!.toString('utf8')).toContain(g.moved.title);
      expect(files.get(categoryPath(cat.m1.id, cat.m1.title))!.toString('utf8')).not.toContain(g.moved.title);
      expect(files.get(categoryPath(cat.a.id, cat.a.title))!.toString('utf8')).not.toContain(g.deleted.title);
    });

    it('lists what was deleted or made private since, with the paths their documents had', () => {
      const deleted = manifest.getElementsByTagName('deleted')[0]!;
      const guides = Array.from(deleted.getElementsByTagName('guide')).map((e) => ({
        id: Number(e.getAttribute('id')),
        reason: e.getAttribute('reason'),
        path: e.getElementsByTagName('path')[0]!.textContent,
        recent: Number(e.getAttribute('date')) >= since,
      }));
      expect(guides).toEqual(
        [
          { id: g.deleted.guideid, reason: 'deleted', path: guidePath(g.deleted.guideid, g.deleted.title), recent: true },
          { id: g.hidden.guideid, reason: 'private', path: guidePath(g.hidden.guideid, g.hidden.title), recent: true },
        ].sort((x, y) => x.id - y.id),
      );
      const categories = Array.from(deleted.getElementsByTagName('document')).map((e) => ({ id: Number(e.getAttribute('id')), type: e.getAttribute('type'), path: e.textContent }));
      expect(categories).toEqual([{ id: cat.d.id, type: 'category', path: categoryPath(cat.d.id, cat.d.title) }]);
    });

    it('packs the media files its documents show, each listed in the manifest', () => {
      const media = [...files.keys()].filter((n) => n.startsWith('media/')).sort();
      const listed = Array.from(manifest.getElementsByTagName('file')).map((f) => f.textContent).sort();
      expect(listed).toEqual(media);
    });

    it('answers 304 to its weak ETag while nothing changes, and a new archive once something does', async () => {
      const etag = res.headers.get('etag')!;
      const again = await download(`/archives/omanual?since=${since}`, { 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      const head = await download(`/archives/omanual?since=${since}`, { Origin: 'https://builder.example' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(etag);
      // A builder in a browser reads the header too.
      expect(head.headers.get('access-control-expose-headers')).toMatch(/(^|, ?)X-Archive-Until(,|$)/i);

      await write('PATCH', `/guides/${g.untouched.guideid}`, 'untouched', { summary: 'Touched at last.' });
      const changed = await download(`/archives/omanual?since=${since}`, { 'If-None-Match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      const names = [...(await filesOf(changed.body)).keys()];
      expect(names).toContain(guidePath(g.untouched.guideid, g.untouched.title));
      expect(names).toContain(categoryPath(cat.quiet.id, cat.quiet.title));
    });

    it('is empty when nothing changed since, and refuses a since in the future or not a UNIX timestamp (400)', async () => {
      await ageEverything();
      const empty = await download(`/archives/omanual?since=${since}`);
      expect(empty.status).toBe(200);
      const entries = await filesOf(empty.body);
      expect([...entries.keys()]).toEqual([MANIFEST_PATH]);
      const m = parseXml(entries.get(MANIFEST_PATH)!.toString('utf8'));
      expect(m.getElementsByTagName('guide')).toHaveLength(0);
      expect(m.getElementsByTagName('deleted')).toHaveLength(1);

      const future = await api.request('GET', `/archives/omanual?since=${now() + 3600}`);
      expect(future.status).toBe(400);
      expect(future.headers.get('content-type')).toBe('application/json');
      expect(future.body.message).toMatch(/^Parameter 'since' is in the future/);
      for (const bad of ['abc', '-5', '1e9', '12.5', '', '9999999999999']) {
        const r = await api.request('GET', `/archives/omanual?since=${encodeURIComponent(bad)}`);
        expect({ bad, status: r.status, message: r.body.message }).toEqual({ bad, status: 400, message: expect.stringMatching(/^Parameter 'since' must be a UNIX timestamp in seconds/) });
      }
    });

    it('refuses more concurrent builds than the server allows (429 with Retry-After)', async () => {
      const controller = api.running.app.get(ArchivesController) as unknown as { building: number };
      controller.building = 2;
      try {
        const busy = await api.request('GET', `/archives/omanual?since=${since}`);
        expect(busy.status).toBe(429);
        expect(busy.headers.get('retry-after')).toBe('5');
      } finally {
        controller.building = 0;
      }
      expect((await download(`/archives/omanual?since=${since}`)).status).toBe(200);
    });

    it('leaves no side file behind', async () => {
      expect((await readdir(dir)).filter((f) => f.startsWith('.'))).toEqual([]);
    });
  });

  describe('a client that goes away', () => {
    it('stops its build: the slot is freed and the side files removed, nothing is logged as sent', async () => {
      // Sixty guides with a conclusion of about 650 KB of text that does not compress much (not
      // searched, so cheap to insert): far more than the connection buffers hold, so the build
      // waits on the client, which reads once and leaves.
      await api.sql(
        `INSERT INTO guides (id, revisionid, author_id, contributor_ids, title, category, subject, type, difficulty, summary, introduction, conclusion,
                             time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags, is_public, locale, created_at, modified_at, published_at)
         SELECT nextval('guides_id_seq'), nextval('guide_revision_seq'), g.author_id, g.contributor_ids, 'Disconnect copy ' || n, g.category, g.subject, g.type,
                g.difficulty, g.summary, g.introduction, (SELECT string_agg(md5(n::text || i::text), ' ') FROM generate_series(1, 20000) AS i),
                g.time_required_min, g.time_required_max, NULL, g.parts, g.tools, '{}', '{}', true, g.locale, now(), now(), now()
           FROM guides g CROSS JOIN generate_series(1, 60) AS n WHERE g.id = $1`,
        [g.edited.guideid],
      );
      const controller = api.running.app.get(ArchivesController) as unknown as { building: number };
      const sent = () => api.logs.filter((l) => l['msg'] === 'incremental archive sent').length;
      const sentBefore = sent();
      const abort = new AbortController();
      const res = await fetch(`${api.origin}/api/2.0/archives/omanual?since=${since}`, { signal: abort.signal });
      expect(res.status).toBe(200);
      const first = await res.body!.getReader().read();
      expect(first.value!.length).toBeGreaterThan(0);
      expect(controller.building).toBe(1);
      // The manifest being assembled, the media list and the ZIP's central directory.
      expect((await readdir(dir)).filter((f) => f.startsWith('.omanual-changes-'))).toHaveLength(3);
      abort.abort();
      for (const deadline = Date.now() + 30_000; controller.building !== 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      expect(controller.building).toBe(0);
      expect((await readdir(dir)).filter((f) => f.startsWith('.'))).toEqual([]);
      expect(sent()).toBe(sentBefore);
      await api.sql(`DELETE FROM guides WHERE title LIKE 'Disconnect copy %'`);
    }, 90_000);
  });

  describe('the full archive', () => {
    it('is unchanged: every public guide and category, no <changes> and no <deleted>', async () => {
      await api.running.app.get(ArchiveBuilder).build();
      const full = await download('/archives/omanual');
      expect(full.status).toBe(200);
      expect(full.headers.get('etag')).toMatch(/^"sha256-[0-9a-f]{64}"$/);
      expect(full.headers.get('accept-ranges')).toBe('bytes');
      const files = await filesOf(full.body);
      const expected = await api.sql<{ id: number; title: string }>('SELECT id, title FROM guides WHERE is_public AND deleted_at IS NULL');
      expect([...files.keys()].filter((n) => n.endsWith('/guide.xml')).sort()).toEqual(expected.map((x) => guidePath(x.id, x.title)).sort());
      const manifest = parseXml(files.get(MANIFEST_PATH)!.toString('utf8'));
      expect(manifest.getElementsByTagName('title')[0]!.textContent).toBe('Repair-Content API offline archive');
      expect(manifest.getElementsByTagName('changes')).toHaveLength(0);
      expect(manifest.getElementsByTagName('deleted')).toHaveLength(0);
      expect([...files.keys()]).toContain(guidePath(g.untouched.guideid, g.untouched.title));

      // A copy made from it is updated with `since` = its `changes_since` (a minute before its build began).
      const [listed] = (await api.request('GET', '/archives')).body as { built_date: number; changes_since: number }[];
      expect(listed!.changes_since).toBeLessThanOrEqual(listed!.built_date - 60);
      expect(listed!.changes_since).toBeGreaterThan(now() - 600);
      await write('PATCH', `/guides/${g.created.guideid}`, 'created', { summary: 'Changed after the full archive.' });
      const update = await filesOf((await download(`/archives/omanual?since=${listed!.changes_since}`)).body);
      expect(update.get(guidePath(g.created.guideid, g.created.title))!.toString('utf8')).toContain('Changed after the full archive.');
    }, 60_000);
  });
});
