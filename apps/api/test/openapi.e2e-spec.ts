import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import sharp from 'sharp';
import { auditOpenApi, type OpenApiDocument } from './support/openapi-audit.js';
import { testVideo, tinyPdf } from './support/media-files.js';
import { openApiValidator } from './support/openapi-validate.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The loose places the document may keep (findings of `auditOpenApi`), each with its reason. Only
 * values that are genuinely any JSON value belong here.
 */
const JUSTIFIED_FINDINGS: Record<string, string> = {
  'any-value #/components/schemas/EditStoryDto/properties/object/oneOf/3/items':
    'PATCH /stories accepts `object` whatever its value and ignores it (the original lists the field): as a list, a list of anything',
  'open-values #/components/schemas/EditStoryDto/properties/object/oneOf/4': 'the same ignored field as an object: an object of anything',
};

/** Properties and parameters named like ids that are rightly strings, by name, with what they hold. */
const STRING_IDS: Record<string, string> = {
  langid: 'a two-letter language code',
  guid: 'the GUID of an image, video or document (16 letters and digits), the key of its file URLs',
  flagid: 'a flag name, such as GUIDE_STARRED',
  webhook_id: "a delivery's UUID (the Standard Webhooks `webhook-id` header)",
  jobID: 'a rotate job name the client may choose (letters, digits and `_.:-`)',
  optionid: "a product option's code (always null here)",
};

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

type Operation = {
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
};

describe('OpenAPI document and Swagger UI', () => {
  let api: TestApi;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

  beforeAll(async () => {
    api = await startTestApi({ IMPERSONATION: 'true' });
    doc = (await api.request('GET', '/docs-json')).body;
  });
  afterAll(() => api.close());

  const operation = (path: string, method: string) => doc.paths[`/api/2.0${path}`]?.[method];

  it('is a valid OpenAPI document', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('passes Redocly lint (the recommended rules, as redocly.yaml tunes them) without an error or a warning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      const run = await promisify(execFile)(
        process.execPath,
        [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'json'],
        { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const problems = (JSON.parse(run.stdout) as { problems: LintProblem[] }).problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(problems).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('serves Swagger UI at /api/2.0/docs and the document as YAML too', async () => {
    const ui = await api.request('GET', '/docs');
    expect(ui.status).toBe(200);
    expect(ui.headers.get('content-type')).toMatch(/^text\/html/);
    expect(ui.text).toMatch(/swagger-ui/i);
    const yaml = await api.request('GET', '/docs-yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.text).toMatch(/^openapi: /m);
  });

  it('lists every route the server answers', () => {
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(routes.sort()).toEqual(
      [
        'POST /api/2.0/user/token',
        'DELETE /api/2.0/user/token',
        'GET /api/2.0/user',
        'POST /api/2.0/users',
        'POST /api/2.0/users/reset_password',
        'POST /api/2.0/users/reset_password/confirm',
        'POST /api/2.0/user/token/impersonate',
        'GET /api/2.0/guides',
        'POST /api/2.0/guides',
        'GET /api/2.0/guides/featured',
        'GET /api/2.0/guides/{guideid}',
        'PATCH /api/2.0/guides/{guideid}',
        'DELETE /api/2.0/guides/{guideid}',
        'PUT /api/2.0/guides/{guideid}/public',
        'DELETE /api/2.0/guides/{guideid}/public',
        'POST /api/2.0/guides/{guideid}/steps',
        'PATCH /api/2.0/guides/{guideid}/steps/{stepid}',
        'DELETE /api/2.0/guides/{guideid}/steps/{stepid}',
        'PUT /api/2.0/guides/{guideid}/steporder',
        'PUT /api/2.0/guides/{guideid}/completed',
        'DELETE /api/2.0/guides/{guideid}/completed',
        'GET /api/2.0/guides/{guideid}/tags',
        'PUT /api/2.0/guides/{guideid}/tag',
        'DELETE /api/2.0/guides/{guideid}/tag',
        'GET /api/2.0/guides/{guideid}/revisions',
        'GET /api/2.0/guides/{guideid}/diff',
        'POST /api/2.0/guides/{guideid}/revert',
        'GET /api/2.0/guides/{guideid}/users',
        'PUT /api/2.0/guides/{guideid}/users/{userid}',
        'DELETE /api/2.0/guides/{guideid}/users/{userid}',
        'GET /api/2.0/guides/{guideid}/teams',
        'PUT /api/2.0/guides/{guideid}/teams/{teamid}',
        'DELETE /api/2.0/guides/{guideid}/teams/{teamid}',
        'GET /api/2.0/user/guides',
        'GET /api/2.0/users/{userid}/guides',
        'GET /api/2.0/user/favorites/guides',
        'PUT /api/2.0/user/favorites/guides/{guideid}',
        'DELETE /api/2.0/user/favorites/guides/{guideid}',
        'GET /api/2.0/users/{userid}/favorites/guides',
        'GET /api/2.0/user/completions',
        'GET /api/2.0/users/{userid}/completions',
        'GET /api/2.0/categories',
        'GET /api/2.0/categories/all',
        'GET /api/2.0/categories/{name}',
        'GET /api/2.0/wikis/{namespace}',
        'GET /api/2.0/wikis/maintenance/CATEGORY/{title}',
        'GET /api/2.0/sites/info',
        'GET /api/2.0/info',
        'GET /api/2.0/user/flags',
        'GET /api/2.0/collections',
        'GET /api/2.0/tags',
        'GET /api/2.0/teams/{teamid}/repair_services',
        'POST /api/2.0/teams/{teamid}/repair_services',
        'PUT /api/2.0/teams/{teamid}/repair_services',
        'DELETE /api/2.0/teams/{teamid}/repair_services/{wikiid}',
        'GET /api/2.0/wikis/{namespace}/{title}',
        'POST /api/2.0/wikis',
        'PATCH /api/2.0/wikis/{namespace}/{title}',
        'DELETE /api/2.0/wikis/{namespace}/{title}',
        'POST /api/2.0/wikis/{namespace}/{title}/revert',
        'GET /api/2.0/wikis/{namespace}/{title}/revisions',
        'GET /api/2.0/wikis/{namespace}/{title}/diff',
        'GET /api/2.0/wikis/{namespace}/{title}/tags',
        'PUT /api/2.0/wikis/{namespace}/{title}/tag',
        'DELETE /api/2.0/wikis/{namespace}/{title}/tag',
        'GET /api/2.0/search/{query}',
        'GET /api/2.0/suggest/{query}',
        'GET /api/2.0/comments',
        'GET /api/2.0/comments/{commentid}',
        'POST /api/2.0/comments/{context}/{contextid}',
        'PATCH /api/2.0/comments/{commentid}',
        'DELETE /api/2.0/comments/{commentid}',
        'GET /api/2.0/stories',
        'POST /api/2.0/stories',
        'GET /api/2.0/stories/{storyid}',
        'PATCH /api/2.0/stories/{storyid}',
        'GET /api/2.0/users',
        'GET /api/2.0/users/{userid}',
        'PATCH /api/2.0/user',
        'GET /api/2.0/teams',
        'POST /api/2.0/teams',
        'GET /api/2.0/teams/{teamid}',
        'PUT /api/2.0/teams/{teamid}/users/{userid}',
        'DELETE /api/2.0/teams/{teamid}/users/{userid}',
        'GET /api/2.0/badges',
        'GET /api/2.0/users/{userid}/badges',
        'GET /api/2.0/user/badges',
        'GET /api/2.0/archives',
        'POST /api/2.0/webhooks',
        'GET /api/2.0/webhooks',
        'GET /api/2.0/webhooks/{webhookid}',
        'PATCH /api/2.0/webhooks/{webhookid}',
        'DELETE /api/2.0/webhooks/{webhookid}',
        'GET /api/2.0/webhooks/{webhookid}/deliveries',
        'POST /api/2.0/webhooks/{webhookid}/deliveries/{deliveryid}/retry',
        'GET /api/2.0/archives/omanual',
        'GET /api/2.0/archives/omanual/{name}',
        'POST /api/2.0/user/media/images',
        'GET /api/2.0/user/media/images',
        'POST /api/2.0/user/media/images/{image}',
        'DELETE /api/2.0/user/media/images',
        'DELETE /api/2.0/user/media/images/{image}',
        'POST /api/2.0/user/media/images/{image}/rotate',
        'GET /api/2.0/user/media/images/rotate/{jobID}',
        'GET /api/2.0/user/media/videos',
        'GET /api/2.0/user/media/embeds',
        'GET /api/2.0/media/images/{image}',
        'GET /api/2.0/media/videos/{video}',
        'GET /api/2.0/media/documents/{document}',
        'GET /api/2.0/igi/{file}',
        'POST /api/2.0/user/media/videos',
        'POST /api/2.0/user/media/documents',
        'POST /api/2.0/user/media/embeds',
        'GET /api/2.0/media/files/videos/{file}',
        'GET /api/2.0/media/files/documents/{file}',
      ].sort(),
    );
  });

  it('declares the two security schemes: the api token and the app id header', () => {
    expect(doc.components.securitySchemes).toEqual({
      api: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }),
      appId: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-App-Id' }),
    });
  });

  it.each([
    ['/user/token', 'post', [{ appId: [] }], ['400', '401', '422', '429']],
    ['/user/token', 'delete', [{ api: [] }], ['401']],
    ['/user', 'get', [{ api: [] }], ['401']],
    ['/users', 'post', [{ appId: [] }], ['400', '401', '403', '422', '429']],
    ['/users/reset_password', 'post', [], ['422', '429']],
    ['/guides/{guideid}', 'get', [], ['400', '403', '404']],
    ['/user/token/impersonate', 'post', [{ api: [] }], ['401', '403', '404', '422']],
    ['/guides/{guideid}', 'patch', [{ api: [] }], ['401', '403', '404', '409', '422']],
    ['/user/guides', 'get', [{ api: [], appId: [] }], ['400', '401']],
  ])('%s %s documents its security and error responses', (path, method, security, errors) => {
    const op = operation(path, method)!;
    expect(op).toBeDefined();
    expect(op.security).toEqual(security);
    for (const status of errors) {
      const schema = op.responses[status]?.content?.['application/json']?.schema?.$ref;
      if (status === '409') expect(schema).toBe('#/components/schemas/GuideResponseDto');
      else expect(schema).toBe(status === '422' ? '#/components/schemas/ValidationErrorResponseDto' : '#/components/schemas/ErrorResponseDto');
    }
  });

  it('gives each error status a true example: the 404 names the route\'s resource, the 403 its privileges, the 422 its errors', () => {
    type Content = { content: { 'application/json': { example: { message: string; requiredPrivileges?: string[]; errors?: unknown[] } } } };
    const example = (path: string, method: string, status: string) => (operation(path, method)!.responses[status] as unknown as Content).content['application/json'].example;
    expect(example('/guides/{guideid}', 'patch', '404').message).toBe('Guide not found');
    expect(example('/guides/{guideid}/steps/{stepid}', 'patch', '404').message).toBe('Step not found');
    expect(example('/users/{userid}', 'get', '404').message).toBe('User not found');
    expect(example('/teams/{teamid}', 'get', '404').message).toBe('Team not found');
    expect(example('/wikis/{namespace}/{title}', 'get', '404').message).toBe('Wiki not found');
    expect(example('/user', 'get', '401').message).toBe('Authentication required');
    expect(example('/users', 'post', '400').message).toBe('Invalid app id');
    expect(example('/guides', 'get', '400').message).toMatch(/^Parameter /);
    expect(example('/users', 'post', '403').requiredPrivileges).toEqual(['Admin']);
    // Only a route an Admin may use (or only an Admin besides the resource's own people) names the privilege.
    expect(example('/guides/{guideid}', 'patch', '403')).toEqual({ error: true, message: 'Insufficient privileges' });
    expect(example('/guides/{guideid}', 'get', '403').message).toBe('Guide is private.');
    expect(example('/user/media/images', 'post', '413').message).toMatch(/^The upload is larger than \d+ bytes$/);
    expect(example('/guides', 'post', '422').errors).toHaveLength(1);
    const notFound = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) => {
        const found = (op.responses['404'] as unknown as Content | undefined)?.content['application/json'].example.message;
        return found === undefined || found !== 'Not found' ? [] : [`${method} ${path}`];
      }),
    );
    expect(notFound).toEqual([]);
  });

  it('types every id in a path as a positive integer', () => {
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).flatMap((op) => ((op as unknown as { parameters?: { name: string; in: string; schema: unknown }[] }).parameters ?? []).filter((p) => p.in === 'path' && p.name.endsWith('id'))),
    );
    expect(ids.length).toBeGreaterThan(20);
    for (const p of ids) expect({ name: p.name, schema: p.schema }).toEqual({ name: p.name, schema: { type: 'integer', minimum: 1 } });
  });

  it('gives every 2xx JSON answer of a GET a typed schema: no object anywhere in it is left without properties', () => {
    type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; additionalProperties?: boolean | Schema; maxProperties?: number; items?: Schema; oneOf?: Schema[]; allOf?: Schema[]; anyOf?: Schema[] };
    const schemas = (doc as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;
    /** A JSON pointer inside the document (`#/components/schemas/X` or deeper). */
    const resolve = (ref: string): Schema => ref.slice(2).split('/').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')], { components: { schemas } }) as Schema;
    /** The places in `schema` that are an object with no declared shape: no properties, no typed values, not closed empty. */
    const bare = (schema: Schema, at: string, seen: Set<string>): string[] => {
      if (schema.$ref) return seen.has(schema.$ref) ? [] : bare(resolve(schema.$ref), schema.$ref, new Set([...seen, schema.$ref]));
      const nested = [...(schema.oneOf ?? []), ...(schema.allOf ?? []), ...(schema.anyOf ?? [])].flatMap((s) => bare(s, at, seen));
      const values = typeof schema.additionalProperties === 'object' ? bare(schema.additionalProperties, `${at}{}`, seen) : [];
      const props = Object.entries(schema.properties ?? {}).flatMap(([name, s]) => bare(s, `${at}.${name}`, seen));
      const items = schema.items ? bare(schema.items, `${at}[]`, seen) : [];
      const shapeless =
        schema.type === 'object' &&
        !Object.keys(schema.properties ?? {}).length &&
        !(schema.oneOf ?? schema.allOf ?? schema.anyOf)?.length &&
        typeof schema.additionalProperties !== 'object' &&
        schema.additionalProperties !== false &&
        schema.maxProperties !== 0;
      return [...(shapeless ? [at] : []), ...nested, ...values, ...props, ...items];
    };
    const found = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => method === 'get')
        .flatMap(([, op]) =>
          Object.entries(op.responses)
            .filter(([status]) => status.startsWith('2'))
            .flatMap(([status, response]) => {
              const schema = response.content?.['application/json']?.schema as Schema | undefined;
              return schema ? bare(schema, `GET ${path} ${status}`, new Set()) : [];
            }),
        ),
    );
    expect(found).toEqual([]);
    const ok = (path: string) => operation(path, 'get')!.responses['200']!.content!['application/json']!.schema!;
    expect(ok('/wikis/{namespace}/{title}').$ref).toBe('#/components/schemas/WikiResponseDto');
    expect(ok('/categories/{name}').$ref).toBe('#/components/schemas/LegacyCategoryResponseDto');
  });

  it('leaves nothing loose: no shapeless object, untyped value, string or number id, 2xx without a body or unfit error example but the justified ones', () => {
    const findings = auditOpenApi(doc as unknown as OpenApiDocument);
    const unjustified = findings.filter((f) => !(f in JUSTIFIED_FINDINGS) && !(f.startsWith('string-id ') && /[/ ](\w+)$/.exec(f)![1]! in STRING_IDS));
    expect(unjustified).toEqual([]);
    // Every entry of the allow-lists is still needed: a fixed place leaves the list.
    expect(Object.keys(JUSTIFIED_FINDINGS).filter((f) => !findings.includes(f))).toEqual([]);
    const stringIds = new Set(findings.filter((f) => f.startsWith('string-id ')).map((f) => /[/ ](\w+)$/.exec(f)![1]!));
    expect(Object.keys(STRING_IDS).filter((name) => !stringIds.has(name))).toEqual([]);
  });

  it('types the media bodies and files', () => {
    const content = (path: string, method: string, status: string) => operation(path, method)!.responses[status]!.content!;
    expect(content('/media/videos/{video}', 'get', '200')['application/json']!.schema!.$ref).toBe('#/components/schemas/VideoResponseDto');
    expect(content('/media/documents/{document}', 'get', '200')['application/json']!.schema!.$ref).toBe('#/components/schemas/DocumentResponseDto');
    expect(content('/user/media/images', 'post', '200')['application/json']!.schema!.$ref).toBe('#/components/schemas/ImageWithMetadataResponseDto');
    expect(content('/user/media/images/rotate/{jobID}', 'get', '200')['application/json']!.schema!.$ref).toBe('#/components/schemas/RotateJobResponseDto');
    expect((content('/user/media/embeds', 'get', '200')['application/json']!.schema as { items?: { $ref?: string } }).items?.$ref).toBe('#/components/schemas/EmbedResponseDto');
    expect(Object.keys(content('/igi/{file}', 'get', '206'))).toEqual(['image/*']);
    expect(Object.keys(content('/media/files/documents/{file}', 'get', '200'))).toEqual(['application/pdf']);
  });

  it("quotes, in the examples checked here, what the server answers: a bad langid, limit or badge category, a user list's offset", async () => {
    type Example = { content: { 'application/json': { example: unknown } } };
    const example = (path: string, method: string, status: string) => (operation(path, method)!.responses[status] as unknown as Example).content['application/json'].example;
    const guideid = (await api.request('GET', '/guides?limit=1')).body[0].guideid;
    expect((await api.request('GET', `/guides/${guideid}?langid=english`)).body).toEqual(example('/guides/{guideid}', 'get', '400'));
    expect((await api.request('GET', '/collections?limit=many')).body).toEqual(example('/collections', 'get', '400'));
    expect((await api.request('GET', '/users?offset=5000')).body).toEqual(example('/users', 'get', '422'));
    const userid = (await api.request('GET', '/users?limit=1')).body[0].userid;
    expect((await api.request('GET', `/users/${userid}/badges?category=nonsense`)).body).toEqual(example('/users/{userid}/badges', 'get', '422'));
    expect((await api.request('GET', '/archives/omanual?since=yesterday')).body).toEqual(example('/archives/omanual', 'get', '400'));
  });

  it('describes what every GET answers: each 200 JSON body of the demo data fits its documented schema, with no property it does not name', async () => {
    const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const get = async (path: string) => (await api.request('GET', path, { token: admin, appId: DEMO_APP_ID })).body;
    const first = async (path: string) => (await get(path))[0];
    const upload = async (kind: string, file: string, bytes: Buffer) =>
      (await api.raw('POST', `/api/2.0/user/media/${kind}?file=${file}`, { method: 'POST', headers: { Authorization: `api ${admin}` }, body: new Uint8Array(bytes) })).body;
    // Media of each kind (the demo data has no video or document), a rotation, a webhook subscription.
    const image = (await upload('images', 'photo.png', await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a7' } }).png().toBuffer())).image.id;
    const video = (await upload('videos', 'clip.mp4', await testVideo('mp4', { seconds: 1 }))).videoid;
    const document = (await upload('documents', 'manual.pdf', tinyPdf())).documentid;
    const jobID = (await api.request('POST', `/user/media/images/${image}/rotate`, { token: admin, body: { degrees: 90 } })).body.jobID;
    await api.request('POST', '/user/media/embeds', { token: admin, body: { url: 'https://vimeo.com/76979871' } });
    const webhookid = (await api.request('POST', '/webhooks', { token: admin, body: { url: 'https://93.184.215.14/hooks', events: ['guide.published'] } })).body.webhookid;
    const guide = await first('/guides');
    const category = await first('/wikis/CATEGORY');
    const title = encodeURIComponent(category.title);
    const guideRevisions = await get(`/guides/${guide.guideid}/revisions`);
    const pageRevisions = await get(`/wikis/CATEGORY/${title}/revisions`);
    const params: Record<string, string> = {
      guideid: String(guide.guideid),
      userid: String((await first('/users')).userid),
      namespace: 'CATEGORY',
      title,
      name: title,
      commentid: String((await first('/comments')).commentid),
      teamid: String((await first('/teams')).teamid),
      storyid: String((await first('/stories')).storyid),
      query: 'battery',
      image: String(image),
      video: String(video),
      document: String(document),
      jobID,
      webhookid: String(webhookid),
    };
    // The variants whose bodies differ in shape.
    const variants: Record<string, string[]> = {
      '/guides': ['', '?modifiedSince=1&includeDeleted'],
      '/wikis/{namespace}': ['', '?display=leaves', '?display=hierarchy', '?display=hierarchyOrder', '?modifiedSince=1&includeDeleted'],
      '/guides/{guideid}': ['', '?stepComments'],
      '/guides/{guideid}/diff': [`?from=${guideRevisions.at(-1).revisionid}&to=${guideRevisions[0].revisionid}`],
      '/wikis/{namespace}/{title}/diff': [`?from=${pageRevisions.at(-1).revisionid}&to=${pageRevisions[0].revisionid}`],
    };
    const check = openApiValidator(doc);
    const checked: string[] = [];
    const misfits: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const schema = ops['get']?.responses['200']?.content?.['application/json']?.schema;
      if (!schema) continue;
      const route = path.replace('/api/2.0', '');
      for (const query of variants[route] ?? ['']) {
        const url = route.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!) + query;
        const res = await api.request('GET', url, { token: admin, appId: DEMO_APP_ID });
        if (res.status !== 200) misfits.push(`GET ${url} → ${res.status} ${res.text.slice(0, 200)}`);
        else misfits.push(...check(schema, res.body).map((e) => `GET ${url}: ${e}`));
        checked.push(url);
      }
    }
    expect(misfits).toEqual([]);
    expect(checked.length).toBeGreaterThanOrEqual(60);
  }, 60_000);

  it('documents success bodies with their schemas', () => {
    expect(operation('/user/token', 'post')!.responses['201']!.content!['application/json']!.schema!.$ref).toBe('#/components/schemas/AuthenticatedUserResponseDto');
    expect(operation('/user', 'get')!.responses['200']!.content!['application/json']!.schema!.$ref).toBe('#/components/schemas/AuthenticatedUserResponseDto');
  });
});

describe('auditOpenApi', () => {
  it('finds each kind of loose place, and nothing in a typed document', () => {
    const error = (example: object) => ({ content: { 'application/json': { schema: { $ref: '#/components/schemas/E' }, example } } });
    const doc: OpenApiDocument = {
      components: {
        schemas: {
          Loose: {
            type: 'object',
            properties: {
              bare: { type: 'object' },
              open: { type: 'object', additionalProperties: true },
              anything: {},
              list: { type: 'array' },
              teamid: { type: 'string' },
              userid: { type: 'number' },
              tags: { type: 'object', additionalProperties: { type: 'string' } },
              none: { type: 'object', maxProperties: 0 },
              guideid: { type: 'integer' },
            },
          },
        },
      },
      paths: {
        '/things/{thingid}': {
          get: {
            parameters: [{ name: 'thingid', in: 'path', schema: { type: 'integer' } }, { name: 'limit', in: 'query', schema: {} }],
            responses: { '200': {}, '204': {}, '400': error({ message: "Parameter 'order' must be ASC or DESC" }), '404': error({ message: 'Thing not found' }) },
          },
          delete: {
            parameters: [{ name: 'revisionid', in: 'query', schema: { type: 'integer' } }],
            requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
            responses: {
              '201': { content: { 'application/json': {} } },
              '413': error({ message: 'Request body is larger than 1 MiB' }),
              '422': error({ message: 'x', errors: [{ field: 'titel' }, { field: 'revisionid' }] }),
            },
          },
        },
      },
    };
    expect(auditOpenApi(doc)).toEqual([
      'shapeless #/components/schemas/Loose/properties/bare',
      'open-values #/components/schemas/Loose/properties/open',
      'any-value #/components/schemas/Loose/properties/anything',
      'untyped-array #/components/schemas/Loose/properties/list',
      'string-id #/components/schemas/Loose/properties/teamid',
      'number-id #/components/schemas/Loose/properties/userid',
      'any-value GET /things/{thingid} query limit',
      "unfit-example GET /things/{thingid} 400 names 'order'",
      'no-body GET /things/{thingid} 200',
      'unfit-example DELETE /things/{thingid} 413 quotes the JSON limit',
      "unfit-example DELETE /things/{thingid} 422 names 'titel'",
      'no-schema DELETE /things/{thingid} 201',
    ]);
    const typed: OpenApiDocument = { paths: { '/x': { get: { responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } } } } } } };
    expect(auditOpenApi(typed)).toEqual([]);
  });

  it('and openApiValidator holds bodies to the schemas: required properties, nullable, $ref, no undocumented property', () => {
    const check = openApiValidator({
      components: { schemas: { Item: { type: 'object', required: ['id', 'note'], properties: { id: { type: 'integer' }, note: { type: 'string', nullable: true } } } } },
    });
    const list = { type: 'array', items: { $ref: '#/components/schemas/Item' } };
    expect(check(list, [{ id: 1, note: null }, { id: 2, note: 'x' }])).toEqual([]);
    expect(check(list, [{ id: 1 }])).toHaveLength(1);
    expect(check(list, [{ id: null, note: 'x' }])).toHaveLength(1);
    expect(check({ allOf: [{ $ref: '#/components/schemas/Item' }], nullable: true }, null)).toEqual([]);
    // A property the schema does not name is a departure (unless the validator is told objects are open).
    expect(check(list, [{ id: 1, note: null, extra: true }])).toHaveLength(1);
    expect(openApiValidator({ components: {} }, { closed: false })({ type: 'object', properties: { id: { type: 'integer' } } }, { id: 1, extra: true })).toEqual([]);
  });
});
