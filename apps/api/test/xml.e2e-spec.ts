import { parseXml, validateOmanual, withoutRawAttributes, type XmlDocument } from '@rc/shared-http/testing';
import { DEMO_ACCOUNTS, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { uploadImage } from './support/images.js';

/** Parses a response body with an XML parser (it throws on what is not well-formed XML). */
const parse = parseXml;
const texts = (doc: XmlDocument, name: string) => Array.from(doc.getElementsByTagName(name)).map((e) => e.textContent);

function expectXml(res: ApiResponse, status = 200): XmlDocument {
  expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status, type: 'application/xml' });
  expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
  return parse(res.text);
}

function expectJson(res: ApiResponse, status = 200): void {
  expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status, type: 'application/json' });
  expect(res.body).toBeDefined();
}

describe('XML: guides and categories as oManual documents', () => {
  let api: TestApi;
  const demo = { opening: 0, battery: 0, joycon: 0, teardown: 0, coffee: 0, draft: 0 };
  let aliceToken = '';

  beforeAll(async () => {
    api = await startTestApi();
    const rows = await api.sql<{ id: number; title: string }>('SELECT id, title FROM guides ORDER BY id');
    const id = (fragment: string) => rows.find((r) => r.title.includes(fragment))!.id;
    Object.assign(demo, { opening: id('Opening'), battery: id('Battery'), joycon: id('Joy-Con'), teardown: id('Teardown'), coffee: id('Coffee'), draft: id('draft') });
    aliceToken = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
  });
  afterAll(() => api.close());

  describe('negotiation', () => {
    it('answers XML with type=XML (any case) and with Accept: application/xml or text/xml', async () => {
      for (const res of [
        await api.request('GET', `/guides/${demo.battery}?type=XML`),
        await api.request('GET', `/guides/${demo.battery}?type=xml`),
        await api.request('GET', `/guides/${demo.battery}`, { headers: { Accept: 'application/xml' } }),
        await api.request('GET', `/guides/${demo.battery}`, { headers: { Accept: 'text/xml' } }),
        await api.request('GET', `/guides/${demo.battery}`, { headers: { Accept: 'application/json;q=0.5, application/xml' } }),
      ]) {
        const doc = expectXml(res);
        expect(doc.documentElement.nodeName).toBe('guide');
        expect(doc.documentElement.namespaceURI).toBe('http://omanual.com/');
        expect(res.headers.get('vary')).toMatch(/Accept/);
      }
    });

    it('stays JSON by default: no Accept, Accept: */*, a browser Accept, JSON preferred, or type=JSON', async () => {
      for (const res of [
        await api.request('GET', `/guides/${demo.battery}`),
        await api.request('GET', `/guides/${demo.battery}`, { headers: { Accept: '*/*' } }),
        await api.request('GET', `/guides/${demo.battery}`, { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } }),
        await api.request('GET', `/guides/${demo.battery}`, { headers: { Accept: 'application/json, application/xml;q=0.9' } }),
        await api.request('GET', `/guides/${demo.battery}?type=JSON`, { headers: { Accept: 'application/xml' } }),
        await api.request('GET', `/guides/${demo.battery}?type=yaml`),
      ]) {
        expectJson(res);
        expect(res.body.guideid).toBe(demo.battery);
        expect(res.headers.get('vary')).toMatch(/Accept/);
      }
    });

    it('serves categories the same way', async () => {
      const doc = expectXml(await api.request('GET', '/categories/iPhone_12?type=XML'));
      expect(doc.documentElement.nodeName).toBe('category');
      expectXml(await api.request('GET', '/categories/iPhone%2012', { headers: { Accept: 'application/xml' } }));
      expectJson(await api.request('GET', '/categories/iPhone_12', { headers: { Accept: '*/*' } }));
    });

    it('leaves other routes JSON (they have no XML form)', async () => {
      expectJson(await api.request('GET', '/guides?type=XML'));
      expectJson(await api.request('GET', '/categories?type=XML'));
      expectJson(await api.request('GET', '/wikis/CATEGORY/No_Such_Page?type=XML'), 404);
    });
  });

  describe('the documents hold what the JSON holds', () => {
    it('a guide: title, author, prerequisite steps first (unless excluded), lines, prerequisites with archive paths', async () => {
      const json = (await api.request('GET', `/guides/${demo.battery}`)).body;
      const doc = expectXml(await api.request('GET', `/guides/${demo.battery}?type=XML`));
      const title = doc.getElementsByTagName('title')[0]!;
      expect([title.textContent, title.getAttribute('subject'), title.getAttribute('type')]).toEqual([json.title, json.subject, json.type]);
      expect(doc.getElementsByTagName('author')[0]!.getAttribute('id')).toBe(String(json.author.userid));
      expect(texts(doc, 'author')).toEqual([json.author.username]);
      expect(texts(doc, 'category')).toEqual([json.category]);
      const steps = Array.from(doc.getElementsByTagName('step'));
      expect(steps).toHaveLength(json.steps.length);
      expect(steps.map((s) => s.getAttribute('number'))).toEqual(json.steps.map((_: unknown, i: number) => String(i)));
      expect(steps.map((s) => s.getAttribute('title'))).toEqual(json.steps.map((s: { title: string }) => s.title));
      const lines = Array.from(doc.getElementsByTagName('line'));
      const jsonLines = json.steps.flatMap((s: { lines: unknown[] }) => s.lines);
      expect(lines.map((l) => [l.getAttribute('bullet'), l.getAttribute('level'), l.getAttribute('text_raw')])).toEqual(
        jsonLines.map((l: { bullet: string; level: number; text_raw: string }) => [l.bullet, String(l.level), l.text_raw]),
      );
      expect(doc.getElementsByTagName('introduction')[0]!.getAttribute('introduction_raw')).toBe(json.introduction_raw);
      expect(doc.getElementsByTagName('introduction')[0]!.getElementsByTagName('h2')[0]!.textContent).toBe('Before you start');
      const prerequisite = doc.getElementsByTagName('prerequisite')[0]!;
      expect(prerequisite.getAttribute('id')).toBe(String(demo.opening));
      expect(prerequisite.getElementsByTagName('path')[0]!.textContent).toBe(`../iPhone-12-Opening-Procedure-${demo.opening}/guide.xml`);
      expect(texts(doc, 'modified_date')).toEqual([new Date(json.modified_date * 1000).toISOString().replace('.000', '')]);

      const excluded = expectXml(await api.request('GET', `/guides/${demo.battery}?type=XML&excludePrerequisiteSteps`));
      const own = (await api.request('GET', `/guides/${demo.battery}?excludePrerequisiteSteps`)).body;
      expect(excluded.getElementsByTagName('step')).toHaveLength(own.steps.length);
      expect(own.steps.length).toBeLessThan(json.steps.length);
    });

    it('a category: title, ancestors closest first, children, guides with their paths, contents', async () => {
      const json = (await api.request('GET', '/categories/iPhone_12')).body;
      const doc = expectXml(await api.request('GET', '/categories/iPhone_12?type=XML'));
      expect(texts(doc, 'ancestor')).toEqual(json.ancestors);
      expect(texts(doc, 'child')).toEqual(json.children);
      const guides = Array.from(doc.getElementsByTagName('guide'));
      expect(guides.map((g) => g.getAttribute('id'))).toEqual(json.guides.map((g: { guideid: number }) => String(g.guideid)));
      expect(guides.map((g) => g.getElementsByTagName('path')[0]!.textContent)).toContain(`iPhone-12-Battery-Replacement-${demo.battery}/guide.xml`);
      expect(doc.getElementsByTagName('contents')[0]!.getAttribute('contents_raw')).toBe(json.contents_raw);
    });
  });

  describe('XSD validation (the *_raw attributes removed, nothing else)', () => {
    it('every public demo guide, with and without prerequisite steps, validates against omanual_guide.xsd', async () => {
      const ids = [demo.opening, demo.battery, demo.joycon, demo.teardown, demo.coffee];
      const documents = [];
      for (const id of ids) {
        for (const query of ['type=XML', 'type=XML&excludePrerequisiteSteps']) {
          const res = await api.request('GET', `/guides/${id}?${query}`);
          expectXml(res);
          documents.push({ name: `guide ${id} ?${query}`, xml: withoutRawAttributes(res.text) });
        }
      }
      // Between them: a guide with a prerequisite, markup (headings, lists, bold), several bullets; every one has its picture.
      expect(documents.some((d) => d.xml.includes('<prerequisite '))).toBe(true);
      expect(documents.filter((d) => d.xml.includes('<image/>'))).toEqual([]);
      expect(await validateOmanual('guide', documents)).toEqual({ valid: true, errors: [] });
    });

    it('a guide with every bullet kind, markup of every kind and an image validates', async () => {
      const bullets = ['black', 'red', 'orange', 'yellow', 'light_blue', 'blue', 'green', 'violet', 'icon_note', 'icon_caution', 'icon_reminder'];
      const [first, second] = [await uploadImage(api, aliceToken), await uploadImage(api, aliceToken)];
      const created = await api.request('POST', '/guides', {
        token: aliceToken,
        body: {
          category: 'iPhone 12',
          type: 'repair',
          title: 'Every bullet',
          public: true,
          image: first.id,
          introduction: "== Heading ==\n'''bold''' ''italic'' [link|https://example.com/a b|a link] [guide|2|a guide]\n* one\n* two\n# first\n# second\n[image|1001|size=medium|align=center]",
          conclusion: '=== Done ===\nThat is all.',
        },
      });
      expect(created.status).toBe(201);
      const id = created.body.guideid as number;
      for (const group of [bullets.slice(0, 8), bullets.slice(8)]) {
        const res = await api.request('POST', `/guides/${id}/steps`, {
          token: aliceToken,
          body: { lines: group.map((bullet, i) => ({ text: `A ''${bullet}'' line`, bullet, level: i === 0 ? 0 : 1 })), media: { type: 'image', data: [first.id, second.id] } },
        });
        expect(res.status).toBe(201);
      }
      const res = await api.request('GET', `/guides/${id}?type=XML`);
      const doc = expectXml(res);
      expect(new Set(Array.from(doc.getElementsByTagName('line')).map((l) => l.getAttribute('bullet')))).toEqual(new Set(bullets));
      expect(await validateOmanual('guide', [{ name: 'every bullet', xml: withoutRawAttributes(res.text) }])).toEqual({ valid: true, errors: [] });
    });

    it('every category validates against omanual_category.xsd', async () => {
      const titles = (await api.request('GET', '/categories/all?limit=200')).body as string[];
      expect(titles.length).toBeGreaterThan(5);
      const documents = [];
      for (const title of titles) {
        const res = await api.request('GET', `/categories/${encodeURIComponent(title)}?type=XML`);
        expectXml(res);
        documents.push({ name: title, xml: withoutRawAttributes(res.text) });
      }
      expect(await validateOmanual('category', documents)).toEqual({ valid: true, errors: [] });
    });
  });

  describe('user text never breaks the XML', () => {
    it('control characters and markup-looking text in a title and steps give well-formed, valid XML', async () => {
      const markup = `<b>Bold</b> & <script>alert("x")</script> ]]> &amp; <![CDATA[y]]>`;
      const created = await api.request('POST', '/guides', { token: aliceToken, body: { category: 'iPhone 12', type: 'repair', title: `Fix ${markup}`, public: true } });
      expect(created.status).toBe(201);
      const id = created.body.guideid as number;
      const step = await api.request('POST', `/guides/${id}/steps`, { token: aliceToken, body: { title: markup, lines: [{ text: `Pry ${markup}`, bullet: 'red', level: 0 }] } });
      expect(step.status).toBe(201);
      // Control characters the write path may refuse go straight into the table (PostgreSQL itself refuses NUL).
      const controls = '\u0001\u0007\u0008\u000b\u000c\u001b\u007f\ufffe';
      await api.sql(`UPDATE guides SET title = title || $2, summary = $3 WHERE id = $1`, [id, ' bell\u0007', `sum${controls}mary`]);
      await api.sql(
        `UPDATE guide_steps SET title = title || $2, lines = jsonb_set(lines, '{0,text}', to_jsonb((lines->0->>'text') || $2)) WHERE guide_id = $1`,
        [id, ` esc\u001b nul-free\u000b`],
      );
      const res = await api.request('GET', `/guides/${id}?type=XML`);
      const doc = expectXml(res);
      // eslint-disable-next-line no-control-regex
      expect(res.text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe]/);
      expect(texts(doc, 'title')[0]).toBe(`Fix ${markup} bell`);
      expect(doc.getElementsByTagName('script')).toHaveLength(0);
      expect(doc.getElementsByTagName('b')).toHaveLength(0);
      expect(doc.getElementsByTagName('step')[0]!.getAttribute('title')).toBe(`${markup} esc nul-free`);
      expect(doc.getElementsByTagName('line')[0]!.getAttribute('text_raw')).toBe(`Pry ${markup} esc nul-free`);
      // DEL (U+007F) is a legal XML 1.0 character and stays; the others are removed.
      expect(texts(doc, 'summary')).toEqual(['sum\u007fmary']);
      expect(await validateOmanual('guide', [{ name: 'hostile', xml: withoutRawAttributes(res.text) }])).toEqual({ valid: true, errors: [] });
    });
  });

  describe('errors on an XML request are XML, with the same statuses', () => {
    const errorOf = (doc: XmlDocument) => ({ root: doc.documentElement.nodeName, message: texts(doc, 'message')[0] });

    it('404 for an unknown guide, with type=XML or Accept', async () => {
      for (const res of [await api.request('GET', '/guides/999999?type=XML'), await api.request('GET', '/guides/999999', { headers: { Accept: 'application/xml' } })]) {
        expect(errorOf(expectXml(res, 404))).toEqual({ root: 'error', message: 'Guide not found' });
      }
      expectJson(await api.request('GET', '/guides/999999'), 404);
    });

    it('403 for a private guide, 400 for a malformed parameter', async () => {
      expect(errorOf(expectXml(await api.request('GET', `/guides/${demo.draft}?type=XML`), 403))).toEqual({ root: 'error', message: 'Guide is private.' });
      const bad = expectXml(await api.request('GET', `/guides/${demo.battery}?type=XML&revisionid=abc`), 400);
      expect(errorOf(bad).message).toMatch(/revisionid/);
      expectJson(await api.request('GET', `/guides/${demo.draft}`), 403);
    });

    it('404 for an unknown category', async () => {
      expect(errorOf(expectXml(await api.request('GET', '/categories/No_Such_Category?type=XML'), 404)).root).toBe('error');
    });

    it('indents errors and documents with ?pretty', async () => {
      const error = await api.request('GET', '/guides/999999?type=XML&pretty');
      expectXml(error, 404);
      expect(error.text).toContain('\n  <message>Guide not found</message>');
      const guide = await api.request('GET', `/guides/${demo.battery}?type=XML&pretty`);
      expectXml(guide);
      expect(guide.text).toMatch(/\n {2}<title subject="Battery"/);
      expect(guide.text).toMatch(/\n {4}<step number="0"/);
      expect((await api.request('GET', `/guides/${demo.battery}?type=XML`)).text).not.toMatch(/\n +</);
    });
  });

  it('Swagger documents the XML responses and the type parameter', async () => {
    const doc = (await api.request('GET', '/docs-json')).body;
    for (const [path, errors] of [
      ['/api/2.0/guides/{guideid}', ['400', '403', '404']],
      ['/api/2.0/categories/{name}', ['404']],
    ] as const) {
      const op = doc.paths[path].get;
      expect(Object.keys(op.responses['200'].content).sort()).toEqual(['application/json', 'application/xml']);
      expect(op.responses['200'].content['application/xml'].schema).toEqual(expect.objectContaining({ type: 'string' }));
      for (const status of errors) {
        expect(op.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorResponseDto');
        expect(op.responses[status].content['application/xml']).toBeDefined();
      }
      expect(op.parameters.find((p: { name: string }) => p.name === 'type')).toMatchObject({ in: 'query', schema: { enum: ['JSON', 'XML'] } });
    }
    expect(doc.paths['/api/2.0/guides/{guideid}'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/GuideResponseDto');
  });
});
