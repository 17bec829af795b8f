import sharp from 'sharp';
import { openApiValidator } from './support/openapi-validate.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

type Schema = {
  $ref?: string;
  type?: string;
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};
type Operation = {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema?: Schema; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/**
 * The example Swagger UI shows (and sends, unless edited) for a schema: a property's `example`,
 * else its `default`, else its first enum value, else a placeholder of its type; objects with
 * every property, arrays with one item, the first `oneOf`/`anyOf` branch, `allOf` merged.
 */
function sampleOf(schema: Schema, doc: Doc): unknown {
  if (schema.$ref) return sampleOf(doc.components.schemas[schema.$ref.split('/').pop()!]!, doc);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sampleOf(s, doc)));
  if (schema.oneOf ?? schema.anyOf) return sampleOf((schema.oneOf ?? schema.anyOf)![0]!, doc);
  if (schema.properties) return Object.fromEntries(Object.entries(schema.properties).map(([name, s]) => [name, sampleOf(s, doc)]));
  switch (schema.type) {
    case 'array':
      return [sampleOf(schema.items ?? {}, doc)];
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return true;
    default:
      return {};
  }
}

describe("Swagger UI's default example of every write", () => {
  let api: TestApi;
  let doc: Doc;
  let token: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    api = await startTestApi({ IMPERSONATION: 'true' });
    doc = (await api.request('GET', '/docs-json')).body;
    token = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const guide = (await api.request('GET', '/guides?limit=1')).body[0];
    ids['guideid'] = String(guide.guideid);
    ids['stepid'] = String((await api.request('GET', `/guides/${guide.guideid}?excludePrerequisiteSteps`)).body.steps[0].stepid);
    ids['userid'] = String((await api.request('GET', '/users?limit=1')).body[0].userid);
    ids['teamid'] = String((await api.request('GET', '/teams')).body[0].teamid);
    // An image of the caller's (the demo data has none yet), for the writes on an image.
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a7' } }).png().toBuffer();
    const uploaded = await api.raw('POST', '/api/2.0/user/media/images?file=example.png', { method: 'POST', headers: { Authorization: `api ${token}` }, body: new Uint8Array(png) });
    if (uploaded.status !== 200) throw new Error(`upload failed: ${uploaded.status} ${uploaded.text}`);
    ids['image'] = String(uploaded.body.image.id);
    ids['namespace'] = 'CATEGORY';
    ids['title'] = (await api.request('GET', '/categories/all?limit=1')).body[0];
    ids['context'] = 'guide';
    ids['contextid'] = ids['guideid'];
    ids['commentid'] = String((await api.request('GET', '/comments?limit=1')).body[0].commentid);
    ids['storyid'] = String((await api.request('GET', '/stories?limit=1')).body[0].storyid);
    // A subscription to change (its target a public address: the default policy refuses private ones).
    ids['webhookid'] = String((await api.request('POST', '/webhooks', { token, body: { url: 'https://93.184.215.14/hooks', events: ['guide.published'] } })).body.webhookid);
  });
  afterAll(() => api.close());

  /**
   * The writes no example written in advance can make succeed, and why: a reset code exists only in
   * the mail sent to the user, and a new step order must list the ids of that guide's own steps.
   * Their examples are still checked: each is refused for that reason, not for its shape.
   */
  const NEEDS_LIVE_VALUES: Record<string, RegExp> = {
    'POST /api/2.0/users/reset_password/confirm': /^422 .*reset code is invalid/,
    'PUT /api/2.0/guides/{guideid}/steporder': /^422 .*stepids must list every step of the guide exactly once/,
  };

  const writes = () =>
    Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })))
      .filter(({ op }) => op.requestBody?.content['application/json'])
      // Deletions last, so that what they remove (a tag) was added by the writes before them.
      .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));

  it('is accepted (2xx) when sent with a valid token against the demo data, and answered with a body its schema describes', async () => {
    const refused: string[] = [];
    const misfits: string[] = [];
    const check = openApiValidator(doc);
    let checked = 0;
    expect(writes().length).toBeGreaterThanOrEqual(20);
    for (const { path, method, op } of writes()) {
      const media = op.requestBody!.content['application/json']!;
      const body = media.example ?? sampleOf(media.schema ?? {}, doc);
      const url = path.replace('/api/2.0', '').replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name]!));
      const query = new URLSearchParams();
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query' || !p.required) continue;
        // The current revision of what the route writes: the step's own on a step's routes.
        const current = (await api.request('GET', url.replace(/\/(steps\/\d+|steps|steporder|public|revert|tag)$/, '') + (path.includes('{stepid}') ? '?excludePrerequisiteSteps' : ''), { token })).body;
        const step = path.includes('{stepid}') ? current.steps.find((s: { stepid: number }) => String(s.stepid) === ids['stepid']) : undefined;
        if (p.name === 'revisionid') query.set(p.name, String((step ?? current).revisionid));
      }
      const res = await api.request(method.toUpperCase(), `${url}${query.size ? `?${query}` : ''}`, { body, token, appId: DEMO_APP_ID });
      const expected = NEEDS_LIVE_VALUES[`${method.toUpperCase()} ${path}`];
      if (expected) {
        if (!expected.test(`${res.status} ${res.text}`)) refused.push(`${method.toUpperCase()} ${path} → ${res.status} ${res.text}, not ${expected}`);
      } else if (res.status >= 300) refused.push(`${method.toUpperCase()} ${path} ${JSON.stringify(body)} → ${res.status} ${res.text}`);
      else {
        // The answer is what the document says it is.
        const schema = op.responses[String(res.status)]?.content?.['application/json']?.schema;
        if (res.text && !schema) misfits.push(`${method.toUpperCase()} ${path} → ${res.status}: no JSON schema documented for it`);
        if (schema) {
          misfits.push(...check(schema, res.body).map((e) => `${method.toUpperCase()} ${path} → ${res.status}: ${e}`));
          checked++;
        }
      }
    }
    expect(refused).toEqual([]);
    expect(misfits).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(25);
  }, 120_000);
});
