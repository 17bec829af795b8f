import { REFERENCE_OPERATIONS } from './support/reference-operations.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

/** `/guides/{guideid}` → `/guides/{}`: the service may name its path parameters differently. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/**
 * The inventory of the original's 80 operations on 56 paths (support/reference-operations.ts): the
 * service routes each one (never its "Endpoint not found" 404 or a 405), documents each in its
 * OpenAPI document, and answers each read on a demo object with a 200.
 */
describe('the 80 operations of the original API are routed and documented', () => {
  let api: TestApi;
  let documented: Set<string>;
  let admin: string;
  /** A demo object for each path parameter. */
  let params: Record<string, string>;

  beforeAll(async () => {
    api = await startTestApi();
    const doc = (await api.request('GET', '/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${shape(path.replace(/^\/api\/2\.0/, ''))}`)));
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const first = async (path: string) => ((await api.request('GET', path, { token: admin, appId: DEMO_APP_ID })).body as Record<string, unknown>[])[0]!;
    const guide = await first('/guides');
    const full = (await api.request('GET', `/guides/${guide['guideid']}`)).body as { steps: { stepid: number }[] };
    const category = await first('/wikis/CATEGORY');
    const image = (await first('/user/media/images'))['image'] as { id: number };
    params = {
      guideid: String(guide['guideid']),
      stepid: String(full.steps[0]!.stepid),
      userid: String((await first('/users'))['userid']),
      image: String(image.id),
      jobID: 'no-such-job',
      namespace: 'CATEGORY',
      title: encodeURIComponent(category['title'] as string),
      commentid: String((await first('/comments'))['commentid']),
      context: 'guide',
      contextid: String(guide['guideid']),
      teamid: String((await first('/teams'))['teamid']),
      wikiid: String(category['wikiid']),
      storyid: String((await first('/stories'))['storyid']),
      query: 'battery',
      video: '1',
      document: '1',
    };
  });
  afterAll(() => api.close());

  it('lists 80 operations on 56 paths, none twice', () => {
    expect(REFERENCE_OPERATIONS).toHaveLength(80);
    expect(new Set(REFERENCE_OPERATIONS.map(([m, p]) => `${m} ${p}`)).size).toBe(80);
    expect(new Set(REFERENCE_OPERATIONS.map(([, p]) => p)).size).toBe(56);
  });

  it('documents every one of them in the OpenAPI document', () => {
    const missing = REFERENCE_OPERATIONS.map(([m, p]) => `${m} ${shape(p)}`).filter((op) => !documented.has(op));
    expect(missing).toEqual([]);
  });

  it('routes every one of them: without credentials or a body, no operation answers "Endpoint not found" or 405', async () => {
    const unrouted: string[] = [];
    for (const [method, template] of REFERENCE_OPERATIONS) {
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => params[name]!);
      const res = await api.request(method, path);
      if (res.status === 405 || (res.status === 404 && res.body?.message === 'Endpoint not found')) unrouted.push(`${method} ${template}: ${res.status}`);
    }
    expect(unrouted).toEqual([]);
  });

  it('answers every read of a demo object with a 200 (as the admin, with the app id)', async () => {
    const failed: string[] = [];
    const reads = REFERENCE_OPERATIONS.filter(([m, p]) => m === 'GET' && !p.includes('{jobID}') && !p.startsWith('/media/videos') && !p.startsWith('/media/documents'));
    expect(reads.length).toBe(34);
    for (const [, template] of reads) {
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => params[name]!);
      const res = await api.request('GET', path, { token: admin, appId: DEMO_APP_ID });
      if (res.status !== 200) failed.push(`GET ${path}: ${res.status}`);
    }
    expect(failed).toEqual([]);
  });

  it('tells an unknown route from a known one (the check above can fail)', async () => {
    const res = await api.request('GET', '/guides/2/nowhere');
    expect([res.status, res.body?.message]).toEqual([404, 'Endpoint not found']);
    expect([...documented].some((op) => op === 'GET /guides/{}/nowhere')).toBe(false);
  });
});
