import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArchiveBuilder, ArchivesController } from '@rc/archive-http';
import { categoryPath, guidePath, MANIFEST_PATH } from '@rc/shared-http';
import { parseXml, validateOmanual } from '@rc/shared-http/testing';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';
import { readZip } from '@rc/archive-http/testing';

/** Every file of a ZIP by name, as text. */
async function readZipText(zip: Buffer): Promise<Map<string, string>> {
  return new Map((await readZip(zip)).map(({ name, data }) => [name, data.toString('utf8')]));
}

interface Download {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

const isDocument = (name: string) => name.endsWith('.xml') && name !== MANIFEST_PATH && !name.startsWith('media/');
const isGuide = (name: string) => name.endsWith('/guide.xml');

/** The offline archive in one language over real HTTP: `GET /archives/omanual?langid=`. */
describe('offline archives per language (GET /archives/omanual?langid=)', () => {
  let api: TestApi;
  let dir: string;
  let admin = '';
  let joycon = { id: 0, title: '' };
  let nintendo = { id: 0, title: 'Nintendo Switch' };
  let full = new Map<string, string>();
  let german = new Map<string, string>();
  let germanEtag = '';

  const download = async (path: string, headers: Record<string, string> = {}): Promise<Download> => {
    const res = await fetch(`${api.origin}/api/2.0${path}`, { headers });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-language-'));
    api = await startTestApi({ ARCHIVE_DIR: dir, ARCHIVE_CHECK_SECONDS: '0' });
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    joycon = (await api.sql<{ id: number; title: string }>(`SELECT id, title FROM guides WHERE title = 'Joy-Con Joystick Replacement'`))[0]!;
    nintendo = (await api.sql<{ id: number; title: string }>(`SELECT id, title FROM wiki_pages WHERE namespace = 'CATEGORY' AND title = 'Nintendo Switch'`))[0]!;
    await api.running.app.get(ArchiveBuilder).build();
    const latest = await download('/archives/omanual');
    expect(latest.status).toBe(200);
    full = await readZipText(latest.body);
    const de = await download('/archives/omanual?langid=de');
    expect(de.status).toBe(200);
    germanEtag = de.headers.get('etag')!;
    german = await readZipText(de.body);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is built for the request and streamed: a ZIP with no length, a weak ETag that answers 304', async () => {
    const head = await fetch(`${api.origin}/api/2.0/archives/omanual?langid=de`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/zip');
    expect(head.headers.get('content-disposition')).toMatch(/^attachment; filename="?omanual-de\.zip"?$/);
    expect(head.headers.get('accept-ranges')).toBeNull();
    expect(germanEtag).toMatch(/^W\/"lang-de-[0-9a-f]{32}"$/);
    expect(head.headers.get('etag')).toBe(germanEtag);
    const again = await download('/archives/omanual?langid=de', { 'If-None-Match': germanEtag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Another language is another archive: its own ETag.
    expect((await download('/archives/omanual?langid=fr', { 'If-None-Match': germanEtag })).status).toBe(200);
    // No side file is left behind, nothing is added to the archives kept.
    expect((await readdir(dir)).filter((f) => f.startsWith('.'))).toEqual([]);
    expect((await api.request('GET', '/archives')).body).toHaveLength(1);
  });

  it('holds the German texts where there are some: the Joy-Con guide and the Nintendo Switch category', async () => {
    // At the path of every archive (named by its own title): what categories and prerequisites point at.
    const path = guidePath(joycon.id, joycon.title);
    expect(german.has(path)).toBe(true);
    const guide = parseXml(german.get(path)!);
    const root = guide.getElementsByTagName('guide')[0]!;
    expect(root.getAttribute('locale')).toBe('de');
    expect(guide.getElementsByTagName('title')[0]!.textContent).toBe('Joy-Con-Joystick austauschen');
    expect(german.get(path)).toContain('Entferne die vier Y00-Schrauben auf der Rückseite des Joy-Con.');
    // The same document `GET /guides/{id}?langid=de&type=XML` answers (its title and lines).
    const served = parseXml((await api.request('GET', `/guides/${joycon.id}?langid=de&type=XML&excludePrerequisiteSteps`)).text);
    const lines = (doc: ReturnType<typeof parseXml>) => Array.from(doc.getElementsByTagName('line')).map((l) => l.textContent);
    expect(lines(guide)).toEqual(lines(served));
    expect(lines(guide).length).toBeGreaterThan(0);

    const category = german.get(categoryPath(nintendo.id, nintendo.title))!;
    expect(parseXml(category).getElementsByTagName('category')[0]!.getAttribute('locale')).toBe('de');
    expect(category).toContain('Fehlerbehebung');
    expect(category).not.toContain('Troubleshooting');
    // The English archive has them in English.
    expect(full.get(guidePath(joycon.id, joycon.title))).toContain('locale="en"');
    expect(full.get(categoryPath(nintendo.id, nintendo.title))).toContain('Troubleshooting');
  });

  it('holds every other document in its own language, as the full archive has it', async () => {
    const translated = new Set([guidePath(joycon.id, joycon.title), categoryPath(nintendo.id, nintendo.title)]);
    const fullDocs = [...full.keys()].filter(isDocument).sort();
    const germanDocs = [...german.keys()].filter(isDocument).sort();
    expect(germanDocs).toEqual(fullDocs);
    let compared = 0;
    for (const name of germanDocs) {
      if (translated.has(name)) continue;
      expect({ name, xml: german.get(name) }).toEqual({ name, xml: full.get(name) });
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
    // The same pictures, at the same paths.
    expect([...german.keys()].filter((n) => n.startsWith('media/')).sort()).toEqual([...full.keys()].filter((n) => n.startsWith('media/')).sort());
  });

  it('has a manifest in German listing every document of the archive', async () => {
    const manifest = parseXml(german.get(MANIFEST_PATH)!);
    expect(manifest.getElementsByTagName('manifest')[0]!.getAttribute('locale')).toBe('de');
    expect(manifest.getElementsByTagName('changes').length).toBe(0);
    expect(manifest.getElementsByTagName('deleted').length).toBe(0);
    const paths = Array.from(manifest.getElementsByTagName('path')).map((p) => p.textContent!).sort();
    expect(paths).toEqual([...german.keys()].filter(isGuide).sort());
    const documents = Array.from(manifest.getElementsByTagName('document')).map((d) => d.textContent!).sort();
    expect(documents).toEqual([...german.keys()].filter((n) => isDocument(n) && !isGuide(n)).sort());
    const joyconEntry = Array.from(manifest.getElementsByTagName('guide')).find((g) => g.getAttribute('id') === String(joycon.id))!;
    expect(joyconEntry.getElementsByTagName('title')[0]!.textContent).toBe('Joy-Con-Joystick austauschen');
    const files = Array.from(manifest.getElementsByTagName('file')).map((f) => f.textContent!).sort();
    expect(files).toEqual([...german.keys()].filter((n) => n.startsWith('media/')).sort());
    // Every path a document shows (a category's guides, a guide's prerequisites) is a file of the archive.
    let pointed = 0;
    for (const [name, xml] of german) {
      if (!isDocument(name)) continue;
      for (const target of Array.from(parseXml(xml).getElementsByTagName('path')).map((p) => p.textContent!)) {
        const file = name.includes('/') ? join(name, '..', target) : target;
        expect({ in: name, target, exists: german.has(file) }).toEqual({ in: name, target, exists: true });
        pointed++;
      }
    }
    expect(pointed).toBeGreaterThan(5);
    const switchDoc = german.get(categoryPath(nintendo.id, nintendo.title))!;
    expect(switchDoc).toContain(`<path>${guidePath(joycon.id, joycon.title)}</path>`);
  });

  it('validates every document strictly against its schema', async () => {
    const guides = [...german].filter(([name]) => isGuide(name)).map(([name, xml]) => ({ name, xml }));
    const categories = [...german].filter(([name]) => isDocument(name) && !isGuide(name)).map(([name, xml]) => ({ name, xml }));
    expect(guides.length).toBeGreaterThanOrEqual(5);
    expect(categories.length).toBeGreaterThan(5);
    expect(await validateOmanual('guide', guides)).toEqual({ valid: true, errors: [] });
    expect(await validateOmanual('category', categories)).toEqual({ valid: true, errors: [] });
  });

  it('follows a new translation: another ETag, the new text', async () => {
    const [battery] = await api.sql<{ id: number; revisionid: number }>(`SELECT id, revisionid FROM guides WHERE title = 'iPhone 12 Battery Replacement'`);
    const res = await api.request('PATCH', `/guides/${battery!.id}?langid=de&revisionid=${battery!.revisionid}`, { token: admin, body: { title: 'iPhone 12 Akkutausch' } });
    expect(res.status).toBe(200);
    const next = await download('/archives/omanual?langid=de', { 'If-None-Match': germanEtag });
    expect(next.status).toBe(200);
    expect(next.headers.get('etag')).not.toBe(germanEtag);
    const files = await readZipText(next.body);
    const doc = parseXml(files.get(guidePath(battery!.id, 'iPhone 12 Battery Replacement'))!);
    expect(doc.getElementsByTagName('guide')[0]!.getAttribute('locale')).toBe('de');
    expect(doc.getElementsByTagName('title')[0]!.textContent).toBe('iPhone 12 Akkutausch');
    // The archive without langid is the one built, untouched.
    const latest = await download('/archives/omanual');
    expect(latest.headers.get('etag')).toMatch(/^"sha256-[0-9a-f]{64}"$/);
    expect([...(await readZipText(latest.body))]).toEqual([...full]);
  });

  it('refuses an unknown language code, langid with since, and more builds than the server allows', async () => {
    for (const bad of ['klingon', 'xx', 'DE']) {
      const r = await api.request('GET', `/archives/omanual?langid=${bad}`);
      expect({ bad, status: r.status }).toEqual({ bad, status: 400 });
    }
    const both = await api.request('GET', `/archives/omanual?langid=de&since=${Math.floor(Date.now() / 1000) - 60}`);
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/'langid' and 'since' cannot be combined/);

    const controller = api.running.app.get(ArchivesController) as unknown as { building: number };
    controller.building = 2;
    try {
      const busy = await api.request('GET', '/archives/omanual?langid=de');
      expect(busy.status).toBe(429);
      expect(busy.headers.get('retry-after')).toBe('5');
    } finally {
      controller.building = 0;
    }
  });
});
