import { pino } from 'pino';
import { loadConfig } from '../src/config/config.js';
import { startApi, type RunningApi } from '../src/server.js';
import { runCli } from '../src/cli/run-cli.js';
import { DEMO_ACCOUNTS, startTestApi, type TestApi } from './support/test-api.js';

/**
 * The read model of public guide bodies (`guide_bodies`): a body built by one instance is stored,
 * and an instance without it in memory serves the stored one (with the users it shows as they are
 * now) instead of building it, but only while the guide's version and the format hold.
 */
describe('GET /guides/{id}: the guide_bodies read model', () => {
  let api: TestApi;
  let alice: string;
  /** Instances started on demand: each begins with nothing in memory. */
  const started: RunningApi[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
  });
  afterAll(async () => {
    for (const s of started) await s.close();
    await api?.close();
  });

  async function freshInstance(): Promise<RunningApi> {
    // Views stay in each instance's memory until it stops: bodies built at different times compare byte for byte.
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.db.url, DEMO_DATA: 'false', LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false', VIEW_FLUSH_SECONDS: '3600' });
    const instance = await startApi(config, pino({ level: 'silent' }));
    started.push(instance);
    return instance;
  }

  const get = (path: string, origin = api.origin) => fetch(`${origin}/api/2.0${path}`, { headers: { 'Accept-Encoding': 'identity' } });

  async function publicGuide(title: string): Promise<{ guideid: number; revisionid: number }> {
    const res = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title, summary: 'Original summary', public: true } });
    expect(res.status).toBe(201);
    await api.settle();
    return res.body;
  }

  type StoredRow = { version: string; format: string; marker: string; template: string };
  const rowsOf = async (guideId: number) => (await api.sql(`SELECT version, format, marker, template FROM guide_bodies WHERE guide_id = $1 AND inline`, [guideId])) as StoredRow[];

  /** The stored row of a guide once it is there (reads store it without waiting). */
  async function storedRow(guideId: number, version?: string): Promise<StoredRow> {
    const until = Date.now() + 5000;
    for (;;) {
      const [row] = await rowsOf(guideId);
      if (row && (!version || row.version === version)) return row;
      if (Date.now() > until) throw new Error(`no stored body for guide ${guideId}${version ? ` at version ${version}` : ''}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('stores the body an anonymous read built, and another instance serves it from there: the same bytes', async () => {
    const guide = await publicGuide('Stored guide');
    const first = await get(`/guides/${guide.guideid}`);
    expect(first.status).toBe(200);
    const text = await first.text();
    const row = await storedRow(guide.guideid);
    expect(row.version).toMatch(new RegExp(`^${guide.revisionid}\\.`));
    // The author stands in the row as a placeholder, filled in when served.
    expect(row.template).not.toContain('"author":{');
    expect(row.template).toContain(`"author":"${row.marker}a`);

    // Proof that the row is what is served: alter it, and an instance with nothing in memory shows the change.
    await api.sql(`UPDATE guide_bodies SET template = replace(template, 'Original summary', 'Summary from the row') WHERE guide_id = $1`, [guide.guideid]);
    const other = await freshInstance();
    const fromRow = await get(`/guides/${guide.guideid}`, other.url);
    expect(fromRow.status).toBe(200);
    expect(await fromRow.text()).toBe(text.replace('Original summary', 'Summary from the row'));
  });

  it('never serves a stored body of an older version or another format: it builds and stores the current one', async () => {
    const guide = await publicGuide('Edited stored guide');
    await get(`/guides/${guide.guideid}`);
    const old = await storedRow(guide.guideid);
    const edit = await api.request('PATCH', `/guides/${guide.guideid}?revisionid=${guide.revisionid}`, { token: alice, body: { summary: 'Edited summary' } });
    expect(edit.status).toBe(200);
    const body = (await (await get(`/guides/${guide.guideid}`, (await freshInstance()).url)).json()) as { revisionid: number; summary: string };
    expect(body).toMatchObject({ revisionid: edit.body.revisionid, summary: 'Edited summary' });
    const current = await storedRow(guide.guideid, `${edit.body.revisionid}.0.0.0m0c0.0`);
    expect(current.version).not.toBe(old.version);

    // A row of another format (another presentation or base URL) is rebuilt, not served.
    await api.sql(`UPDATE guide_bodies SET format = 'other', template = replace(template, 'Edited summary', 'Stale format') WHERE guide_id = $1`, [guide.guideid]);
    const again = (await (await get(`/guides/${guide.guideid}`, (await freshInstance()).url)).json()) as { summary: string };
    expect(again.summary).toBe('Edited summary');
    expect((await storedRow(guide.guideid)).format).not.toBe('other');
  });

  it('shows the users of a stored body as they are now (a renamed author)', async () => {
    const guide = await publicGuide('Renamed author guide');
    await get(`/guides/${guide.guideid}`);
    await storedRow(guide.guideid);
    const renamed = await api.request('PATCH', '/user', { token: alice, body: { username: 'Alice Stored' } });
    expect(renamed.status).toBe(200);
    try {
      const body = (await (await get(`/guides/${guide.guideid}`, (await freshInstance()).url)).json()) as { author: { username: string } };
      expect(body.author.username).toBe('Alice Stored');
    } finally {
      await api.request('PATCH', '/user', { token: alice, body: { username: DEMO_ACCOUNTS.alice.username } });
    }
  });

  it('keeps private guides out of it', async () => {
    const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'Private stored guide' } });
    expect(created.status).toBe(201);
    expect((await get(`/guides/${created.body.guideid}`)).status).toBe(403);
    expect((await api.request('GET', `/guides/${created.body.guideid}`, { token: alice })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await rowsOf(created.body.guideid)).toEqual([]);
  });

  it('npm run cli -- guides:bodies stores every public guide whose body is missing or outdated, then none', async () => {
    const guide = await publicGuide('Built by the CLI');
    await api.sql(`DELETE FROM guide_bodies`);
    const publicIds = ((await api.sql(`SELECT id FROM guides WHERE is_public AND deleted_at IS NULL ORDER BY id`)) as { id: number }[]).map((r) => r.id);
    const run = async (...args: string[]) => {
      const out: string[] = [];
      const code = await runCli(['guides:bodies', ...args], { env: { DATABASE_URL: api.db.url, LOG_LEVEL: 'silent', EVENT_DELIVERY: 'false' }, out: (l) => out.push(l), err: () => undefined, readLine: async () => '' });
      expect(code).toBe(0);
      return out.join('\n');
    };
    expect(await run()).toMatch(new RegExp(`^stored ${publicIds.length} guide bodies in `));
    const stored = ((await api.sql(`SELECT guide_id FROM guide_bodies WHERE inline ORDER BY guide_id`)) as { guide_id: number }[]).map((r) => r.guide_id);
    expect(stored).toEqual(publicIds);
    expect(await run()).toMatch(/^stored 0 guide bodies in /);

    // Side by side, workers take the ids of one remainder each: together, every guide once.
    await api.sql(`DELETE FROM guide_bodies`);
    const first = Number(/^stored ([0-9]+) /.exec(await run('--part', '1/2'))![1]);
    expect(first).toBe(publicIds.filter((id) => id % 2 === 0).length);
    expect(Number(/^stored ([0-9]+) /.exec(await run('--part', '2/2'))![1])).toBe(publicIds.length - first);
    expect((await api.sql(`SELECT count(*)::int AS n FROM guide_bodies WHERE inline`))[0]).toEqual({ n: publicIds.length });

    // What it stores is what a read builds: an instance serving it answers the same bytes as one that builds.
    await api.sql(`DELETE FROM guide_bodies WHERE guide_id = $1`, [guide.guideid]);
    const built = await (await get(`/guides/${guide.guideid}`, (await freshInstance()).url)).text();
    await storedRow(guide.guideid);
    await api.sql(`DELETE FROM guide_bodies WHERE guide_id = $1`, [guide.guideid]);
    expect(await run()).toMatch(/^stored 1 guide bodies in /);
    expect(await (await get(`/guides/${guide.guideid}`, (await freshInstance()).url)).text()).toBe(built);
  });
});
