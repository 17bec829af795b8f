import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { testVideo, tinyPdf } from './support/media-files.js';
import { GET_RESPONSES, LEGACY_GET_RESPONSES, REFERENCE_SCHEMAS } from './support/reference-schemas.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

// ajv-formats is a CommonJS module whose default export is the plugin itself.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Runs `fn` over `items` with at most `limit` calls in flight. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

type Who = 'anonymous' | keyof typeof DEMO_ACCOUNTS;
interface Call {
  /** The operation, as GET_RESPONSES names it. */
  readonly op: string;
  readonly path: string;
  readonly as: Who;
}

/**
 * Every GET operation of the original answers, on every demo object, a body that validates against
 * the reference's schema for that operation (support/reference-schemas.ts). The objects are found
 * through the list endpoints (every page), never named by hand.
 */
describe('every GET body validates against the reference schemas, on every demo object', () => {
  let api: TestApi;
  const tokens: Partial<Record<Who, string>> = {};
  const validators = new Map<string, ValidateFunction>();
  /** Operation → how many bodies were validated. */
  const validated = new Map<string, number>();
  /** Operation → the most items one of its bodies held (an empty list validates against anything). */
  const largest = new Map<string, number>();
  const failures: { call: string; status: number; errors: unknown }[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    for (const who of ['admin', 'alice', 'bob'] as const) tokens[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
    const ajv = addFormats(new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false }));
    ajv.addSchema(REFERENCE_SCHEMAS);
    for (const [op, schema] of Object.entries({ ...GET_RESPONSES, ...LEGACY_GET_RESPONSES })) validators.set(op, ajv.compile(resolveRefs(schema)));
  }, 120_000);
  afterAll(() => api.close());

  /** Points the operation's `$ref`s at the shared document. */
  function resolveRefs(schema: object): object {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', `"${REFERENCE_SCHEMAS.$id}#/$defs/`)) as object;
  }

  /** Asks one GET and validates its body; returns the body (undefined unless 200). */
  async function check(call: Call): Promise<ApiResponse> {
    const token = call.as === 'anonymous' ? undefined : tokens[call.as];
    const res = await api.request('GET', call.path, { token, appId: token ? DEMO_APP_ID : undefined });
    const label = `${call.op} ${call.path} as ${call.as}`;
    if (res.status !== 200) {
      failures.push({ call: label, status: res.status, errors: res.body });
      return res;
    }
    const validate = validators.get(call.op)!;
    if (!validate(res.body)) failures.push({ call: label, status: 200, errors: validate.errors!.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`) });
    validated.set(call.op, (validated.get(call.op) ?? 0) + 1);
    const body = res.body as unknown;
    const size = Array.isArray(body) ? body.length : body && typeof body === 'object' ? (((body as Record<string, unknown>)['guideTeams'] as unknown[] | undefined)?.length ?? Object.keys(body).length) : 0;
    largest.set(call.op, Math.max(largest.get(call.op) ?? 0, size));
    return res;
  }

  const checkAll = (calls: Call[]) => mapLimit(calls, 6, check);

  /** Every page of a list endpoint (limit 200, the maximum, until a short page). */
  async function allPages(op: string, path: string, as: Who = 'anonymous', limit = 200): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += limit) {
      const sep = path.includes('?') ? '&' : '?';
      const page = (await check({ op, path: `${path}${sep}limit=${limit}&offset=${offset}`, as })).body as Record<string, unknown>[];
      if (!Array.isArray(page)) return items;
      items.push(...page);
      if (page.length < limit) return items;
    }
  }

  /** Every Image object (`id`, `guid`, `original`) anywhere in a body. */
  function imageIds(body: unknown, into: Set<number>): void {
    if (Array.isArray(body)) for (const item of body) imageIds(item, into);
    else if (body && typeof body === 'object') {
      const o = body as Record<string, unknown>;
      if (typeof o['id'] === 'number' && typeof o['guid'] === 'string' && typeof o['original'] === 'string') into.add(o['id']);
      for (const value of Object.values(o)) imageIds(value, into);
    }
  }

  it('validates every GET operation on every demo object (anonymous, and as each demo account where it needs one)', async () => {
    const accounts = ['admin', 'alice', 'bob'] as const;
    const bodies: unknown[] = [];
    const keep = async (calls: Call[]) => bodies.push(...(await checkAll(calls)).map((r) => r.body));

    // A video and a PDF in Alice's library (the demo data has none), and a rotation job of one of her images.
    const alice = tokens.alice!;
    const upload = async (kind: string, file: string, bytes: Buffer) =>
      api.raw('POST', `/api/2.0/user/media/${kind}?file=${file}`, { headers: { Authorization: `api ${alice}`, 'Content-Type': 'application/octet-stream' }, body: new Uint8Array(bytes) });
    const video = await upload('videos', 'clip.mp4', await testVideo('mp4', { seconds: 1 }));
    expect(video.status).toBe(201);
    const pdf = await upload('documents', 'manual.pdf', tinyPdf());
    expect(pdf.status).toBe(201);

    // What the demo data has none of: a collaborator and a team on a guide, tags, a page of the WIKI
    // and INFO namespaces, a team's repair service.
    const admin = tokens.admin!;
    const write = async (method: string, path: string, body: unknown, status: number) => expect([path, (await api.request(method, path, { token: admin, body })).status]).toEqual([path, status]);
    const created: Record<string, number> = {};
    for (const [namespace, title] of [['WIKI', 'Soldering Basics'], ['INFO', 'Battery Service']] as const) {
      const res = await api.request('POST', '/wikis', { token: admin, body: { namespace, title, contents: `== ${title} ==\nWhat to know.` } });
      expect(res.status).toBe(201);
      created[namespace] = res.body.wikiid as number;
    }
    await write('PUT', '/guides/2/users/3', undefined, 201);
    await write('PUT', '/guides/2/teams/1', undefined, 201);
    await write('PUT', '/guides/2/tag', { tag: 'battery' }, 200);
    await write('PUT', '/wikis/CATEGORY/iPhone_12/tag', { tag: 'smartphone' }, 200);
    await write('POST', '/teams/1/repair_services', { wikiid: created['INFO'] }, 200);

    // The lists, every page.
    const users = await allPages('GET /users', '/users');
    const guides = await allPages('GET /guides', '/guides');
    const teams = await allPages('GET /teams', '/teams');
    const comments = await allPages('GET /comments', '/comments');
    const stories = await allPages('GET /stories', '/stories', 'anonymous', 50);
    await allPages('GET /tags', '/tags');
    const wikis: Record<string, unknown>[] = [];
    for (const namespace of ['CATEGORY', 'WIKI', 'INFO', 'ITEM', 'USER', 'TEAM']) wikis.push(...(await allPages('GET /wikis/{namespace}', `/wikis/${namespace}`)));
    bodies.push(users, guides, teams, comments, stories, wikis);
    await keep([{ op: 'GET /categories', path: '/categories', as: 'anonymous' }]);

    // What each account sees of itself (private guides included).
    const ownGuides: Record<string, unknown>[] = [];
    for (const as of accounts) {
      ownGuides.push(...(await allPages('GET /user/guides', '/user/guides', as)));
      bodies.push(await allPages('GET /user/media/images', '/user/media/images', as));
      const videos = await allPages('GET /user/media/videos', '/user/media/videos', as);
      bodies.push(videos);
      await keep(
        (['/user', '/user/badges', '/user/favorites/guides', '/user/completions', '/user/flags'] as const).map((path) => ({ op: `GET ${path}`, path, as })),
      );
    }
    const myImages = (await api.request('GET', '/user/media/images?limit=1', { token: alice })).body as { image: { id: number } }[];
    const rotate = await api.request('POST', `/user/media/images/${myImages[0]!.image.id}/rotate`, { token: alice, body: { degrees: 90 } });
    expect(rotate.status).toBe(202);
    await keep([{ op: 'GET /user/media/images/rotate/{jobID}', path: `/user/media/images/rotate/${encodeURIComponent(rotate.body.jobID as string)}`, as: 'alice' }]);

    // Each user.
    await keep(
      users.flatMap((u) =>
        ['', '/badges', '/favorites/guides', '/guides', '/completions'].map((suffix) => ({ op: `GET /users/{userid}${suffix}`, path: `/users/${u['userid']}${suffix}`, as: 'anonymous' as Who })),
      ),
    );
    // Each guide: public ones anonymously, every one (private too) as the admin.
    const guideIds = [...new Set([...guides, ...ownGuides].map((g) => g['guideid'] as number))].sort((a, b) => a - b);
    const publicIds = new Set(guides.map((g) => g['guideid'] as number));
    await keep(
      guideIds.flatMap((id) => [
        ...(publicIds.has(id) ? [{ op: 'GET /guides/{guideid}', path: `/guides/${id}`, as: 'anonymous' as Who }, { op: 'GET /guides/{guideid}/tags', path: `/guides/${id}/tags`, as: 'anonymous' as Who }] : []),
        { op: 'GET /guides/{guideid}', path: `/guides/${id}`, as: 'admin' as Who },
        { op: 'GET /guides/{guideid}/users', path: `/guides/${id}/users`, as: 'admin' as Who },
        { op: 'GET /guides/{guideid}/teams', path: `/guides/${id}/teams`, as: 'admin' as Who },
      ]),
    );
    // Each wiki page.
    await keep(
      wikis.flatMap((w) => {
        const title = encodeURIComponent(w['title'] as string);
        return [
          { op: 'GET /wikis/{namespace}/{title}', path: `/wikis/${w['namespace']}/${title}`, as: 'anonymous' as Who },
          { op: 'GET /wikis/{namespace}/{title}/tags', path: `/wikis/${w['namespace']}/${title}/tags`, as: 'anonymous' as Who },
          ...(w['namespace'] === 'CATEGORY' ? [{ op: 'GET /wikis/maintenance/CATEGORY/{title}', path: `/wikis/maintenance/CATEGORY/${title}`, as: 'anonymous' as Who }] : []),
        ];
      }),
    );
    // Each comment and reply, team, story.
    const commentIds = comments.flatMap((c) => [c['commentid'] as number, ...((c['replies'] as { commentid: number }[] | undefined) ?? []).map((r) => r.commentid)]);
    await keep([...new Set(commentIds)].map((id) => ({ op: 'GET /comments/{commentid}', path: `/comments/${id}`, as: 'anonymous' })));
    await keep(
      teams.flatMap((t) => [
        { op: 'GET /teams/{teamid}', path: `/teams/${t['teamid']}`, as: 'anonymous' as Who },
        { op: 'GET /teams/{teamid}/repair_services', path: `/teams/${t['teamid']}/repair_services`, as: 'admin' as Who },
      ]),
    );
    await keep(stories.map((s) => ({ op: 'GET /stories/{storyid}', path: `/stories/${s['storyid']}`, as: 'anonymous' })));
    // Suggestions for each guide's and each page's title.
    const titles = [...new Set([...guides.map((g) => g['title'] as string), ...wikis.map((w) => w['title'] as string)])];
    await keep(titles.map((t) => ({ op: 'GET /suggest/{query}', path: `/suggest/${encodeURIComponent(t)}`, as: 'anonymous' })));

    // The legacy reads official clients make.
    await allPages('GET /guides/featured', '/guides/featured');
    await allPages('GET /categories/all', '/categories/all');
    await keep(
      (['/categories?withDisplayTitles', '/wikis/CATEGORY?display=hierarchy', '/sites/info', '/info'] as const).map((path) => ({ op: `GET ${path}`, path, as: 'anonymous' as Who })),
    );
    await allPages('GET /collections', '/collections');
    for (const as of accounts) await allPages('GET /user/media/embeds', '/user/media/embeds', as);
    const categories = wikis.filter((w) => w['namespace'] === 'CATEGORY');
    await keep(categories.map((w) => ({ op: 'GET /categories/{name}', path: `/categories/${encodeURIComponent(w['title'] as string)}`, as: 'anonymous' })));
    await keep(titles.map((t) => ({ op: 'GET /search/{query}', path: `/search/${encodeURIComponent(t)}`, as: 'anonymous' })));

    // Every image seen anywhere, and the video and document (as their owner).
    const images = new Set<number>();
    imageIds(bodies, images);
    expect(images.size).toBeGreaterThan(10);
    await keep([...images].sort((a, b) => a - b).map((id) => ({ op: 'GET /media/images/{image}', path: `/media/images/${id}`, as: 'admin' })));
    await keep([{ op: 'GET /media/videos/{video}', path: `/media/videos/${video.body.videoid}`, as: 'alice' }]);
    await keep([{ op: 'GET /media/documents/{document}', path: `/media/documents/${pdf.body.documentid}`, as: 'alice' }]);

    expect(failures).toEqual([]);
    // Each operation was asked and validated, most of them many times.
    expect([...validated.keys()].sort()).toEqual([...Object.keys(GET_RESPONSES), ...Object.keys(LEGACY_GET_RESPONSES)].sort());
    expect(guideIds.length).toBeGreaterThanOrEqual(6);
    expect(validated.get('GET /guides/{guideid}')).toBe(guideIds.length + publicIds.size);
    expect(validated.get('GET /comments/{commentid}')).toBe(new Set(commentIds).size);
    expect(validated.get('GET /categories/{name}')).toBe(categories.length);
    expect(categories.length).toBeGreaterThanOrEqual(10);
    // No operation was checked on empty bodies only, except two: the demo data has no collection, and
    // no embed (this service keeps no provider HTML, so its embeds' `html` is null where the
    // reference's Embed has a string: a known difference, not validated here).
    const empty = [...largest].filter(([, n]) => n === 0).map(([op]) => op).sort();
    expect(empty).toEqual(['GET /collections', 'GET /user/media/embeds']);
  }, 300_000);

  it('the schemas are not vacuous: a real body with a field missing, of a wrong type, or that the reference excludes, fails', async () => {
    const guide = validators.get('GET /guides/{guideid}')!;
    const body = (await api.request('GET', '/guides/2')).body as Record<string, unknown>;
    expect(guide(body)).toBe(true);
    const without = (key: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));
    expect(guide(without('author'))).toBe(false);
    expect(guide({ ...body, dataType: 'guide' })).toBe(false);
    expect(guide({ ...body, image: { id: 1, original: 'https://example.com/x' } })).toBe(false);
    expect(guide({ ...body, image: { ...(body['image'] as object), poster: 'https://example.com/x' } })).toBe(false);
    expect(guide({ ...body, steps: [{ ...(body['steps'] as object[])[0], lines: [{ text_raw: 'x', text_rendered: 'x', bullet: 'pink', level: 0, lineid: null }] }] })).toBe(false);
    const summaries = validators.get('GET /guides')!;
    const list = (await api.request('GET', '/guides')).body as Record<string, unknown>[];
    expect(summaries(list)).toBe(true);
    expect(summaries([{ ...list[0], time_required_min: 60 }])).toBe(false);
    expect(summaries([{ ...list[0], userid: '2' }])).toBe(false);
    const users = validators.get('GET /users')!;
    const people = (await api.request('GET', '/users')).body as Record<string, unknown>[];
    expect(users(people)).toBe(true);
    expect(users([{ ...people[0], privileges: ['User'] }])).toBe(false);
  });
});
