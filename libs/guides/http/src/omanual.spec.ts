import { guideDocument, type GuideBody, type LineBody } from './omanual-guide.mapper.js';
import { parseXml, validateOmanual, withoutRawAttributes, type XmlDocument } from '@rc/shared-http/testing';

const BASE = 'https://repair.example';
const BULLETS = ['black', 'red', 'orange', 'yellow', 'light_blue', 'blue', 'green', 'violet', 'icon_note', 'icon_caution', 'icon_reminder'];

const image = (id: number) => ({
  id,
  guid: `i${id}`,
  mini: `${BASE}/igi/i${id}.mini`,
  thumbnail: `${BASE}/igi/i${id}.thumbnail`,
  standard: `${BASE}/igi/i${id}.standard`,
  medium: `${BASE}/igi/i${id}.medium`,
  large: `${BASE}/igi/i${id}.large`,
  huge: `${BASE}/igi/i${id}.huge`,
  original: `${BASE}/igi/i${id}.full`,
});

const line = (text: string, bullet = 'black', level = 0, rendered = text): LineBody => ({ text_raw: text, text_rendered: rendered, bullet, level });

function guide(overrides: Partial<GuideBody> = {}): GuideBody {
  return {
    guideid: 12,
    title: 'iPhone 12 Battery Replacement',
    category: 'iPhone 12',
    subject: 'Battery',
    type: 'replacement',
    summary: 'Replace a worn battery.',
    difficulty: 'Moderate',
    time_required: '30 minutes - 1 hour',
    introduction_raw: "== Before you start ==\n* Work on a '''clean''' surface",
    introduction_rendered:
      '<h2 id="Section_Before_you_start">Before you start</h2><ul><li>Work on a <strong>clean</strong> surface</li></ul>' +
      '<ol><li>first</li></ol><p>See <a href="https://repair.example/Guide/x/1" rel="nofollow noopener" target="_blank">this</a> <em>guide</em>.</p>' +
      '<div class="imageBox_center"><img src="https://repair.example/igi/i5.medium" alt="A photo"></div>',
    conclusion_raw: "''Done''",
    conclusion_rendered: '<p><em>Done</em></p>',
    image: null,
    steps: [
      {
        title: 'Bullets, part one',
        lines: BULLETS.slice(0, 8).map((b, i) => line(`Line with ${b}`, b, i === 0 ? 0 : 1)),
        media: { type: 'image', data: [image(1), image(2), image(3)] },
      },
      {
        title: '',
        lines: [line('Lift it with a <b>spudger</b> & care', 'icon_note', 0, 'Lift it with a &lt;b&gt;spudger&lt;/b&gt; &amp; care'), ...BULLETS.slice(8).map((b) => line(`Line with ${b}`, b, 1))],
        media: { type: 'video', data: { objectid: 4 } },
      },
      { title: 'No media', lines: [line("Use ''care''", 'black', 0, 'Use <em>care</em>')], media: { type: 'image', data: [] } },
    ],
    parts: [{ text: 'Battery', type: 'Part Only', quantity: 1, notes: null, url: 'https://shop.example/battery', thumbnail: null }],
    tools: [{ text: 'Spudger', type: '', quantity: 2, notes: 'or a guitar pick', url: 'https://shop.example/a tool with spaces/é', thumbnail: 'https://shop.example/t.jpg' }],
    prerequisites: [
      { guideid: 3, locale: 'en', type: 'technique', subject: 'Opening', title: 'iPhone 12 Opening Procedure', url: `${BASE}/Guide/iPhone+12+Opening+Procedure/3`, image: image(9) },
      { guideid: 4, locale: 'en', type: 'technique', subject: '', title: 'Without image', url: `${BASE}/Guide/Without+image/4`, image: null },
    ],
    flags: [{ title: 'Prerequisite Only', flagid: 'GUIDE_PREREQ_ONLY', text: 'Meant to be used as a prerequisite.' }],
    author: { userid: 2, username: 'Alice' },
    created_date: 1_700_000_000,
    modified_date: 1_700_003_600,
    locale: 'en',
    url: `${BASE}/Guide/iPhone+12+Battery+Replacement/12`,
    ...overrides,
  };
}

const parse = parseXml;

const elements = (doc: XmlDocument, name: string) => Array.from(doc.getElementsByTagName(name));

describe('oManual guide documents', () => {
  it('validate against omanual_guide.xsd once the *_raw attributes are removed (prerequisites, markup, every bullet, no image)', async () => {
    const xml = guideDocument(guide(), { raw: true });
    expect(xml).toContain('introduction_raw=');
    expect(xml).toContain('text_raw=');
    const stripped = withoutRawAttributes(xml);
    expect(stripped).not.toMatch(/_raw=/);
    const result = await validateOmanual('guide', [{ name: 'guide', xml: stripped }]);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('fail the schema with the *_raw attributes left in (the validation is real)', async () => {
    const result = await validateOmanual('guide', [{ name: 'guide', xml: guideDocument(guide(), { raw: true }) }]);
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/introduction_raw.*not allowed/);
  });

  it('validate strictly without the raw attributes (the archive form)', async () => {
    const xml = guideDocument(guide({ image: image(7), difficulty: null, prerequisites: [], flags: [] }), { raw: false });
    expect(xml).not.toMatch(/_raw=/);
    expect(await validateOmanual('guide', [{ name: 'guide', xml }])).toEqual({ valid: true, errors: [] });
  });

  it('map the body field by field: steps numbered from 0, lines with bullets and levels, images, prerequisites with paths', () => {
    const doc = parse(guideDocument(guide(), { raw: true }));
    const root = doc.documentElement;
    expect(root.namespaceURI).toBe('http://omanual.com/');
    expect(root.getAttribute('locale')).toBe('en');
    const title = elements(doc, 'title')[0]!;
    expect([title.textContent, title.getAttribute('subject'), title.getAttribute('type')]).toEqual(['iPhone 12 Battery Replacement', 'Battery', 'replacement']);
    expect(elements(doc, 'author')[0]!.getAttribute('id')).toBe('2');
    const steps = elements(doc, 'step');
    expect(steps.map((s) => s.getAttribute('number'))).toEqual(['0', '1', '2']);
    const lines = elements(doc, 'line');
    expect(lines.map((l) => l.getAttribute('bullet'))).toEqual([...BULLETS.slice(0, 8), 'icon_note', ...BULLETS.slice(8), 'black']);
    expect(new Set(lines.map((l) => l.getAttribute('bullet')))).toEqual(new Set(BULLETS));
    expect(lines[1]!.getAttribute('level')).toBe('1');
    // Three images on the first step; video media (known by id only) and no media are left out.
    expect(elements(doc, 'media')).toHaveLength(1);
    expect(elements(doc, 'media')[0]!.getElementsByTagName('image')).toHaveLength(3);
    const prerequisites = elements(doc, 'prerequisite');
    expect(prerequisites.map((p) => p.getElementsByTagName('path')[0]!.textContent)).toEqual(['../iPhone-12-Opening-Procedure-3/guide.xml', '../Without-image-4/guide.xml']);
    expect(elements(doc, 'modified_date')[0]!.textContent).toBe('2023-11-14T23:13:20Z');
    // Rendered markup becomes elements of the simplified HTML: ol → ul class="ordered", img → a link.
    const introduction = elements(doc, 'introduction')[0]!;
    expect(introduction.getElementsByTagName('h2')[0]!.textContent).toBe('Before you start');
    expect(introduction.getElementsByTagName('strong')[0]!.textContent).toBe('clean');
    expect(Array.from(introduction.getElementsByTagName('ul')).map((u) => u.getAttribute('class'))).toEqual([null, 'ordered']);
    const links = Array.from(introduction.getElementsByTagName('a'));
    expect(links.map((a) => [a.getAttribute('href'), a.getAttribute('class'), a.textContent])).toEqual([
      ['https://repair.example/Guide/x/1', null, 'this'],
      ['https://repair.example/igi/i5.medium', 'image', 'A photo'],
    ]);
    expect(introduction.getElementsByTagName('img')).toHaveLength(0);
    // A URL with spaces is percent-encoded for xs:anyURI.
    expect(elements(doc, 'tool')[0]!.getAttribute('url')).toBe('https://shop.example/a%20tool%20with%20spaces/%C3%A9');
  });

  it('keep markup-looking text as text, remove control characters, and keep line breaks in attributes', async () => {
    const hostile = 'Title <script>alert(1)</script> & "quotes" \u0000\u0001\u0008\u000b\u000c\u001f\u007f\uFFFE\uD800 &lt;not an entity&gt; ]]> end';
    const body = guide({
      title: hostile,
      summary: '<![CDATA[ x ]]> <!-- comment --> <?pi x?>',
      introduction_raw: 'line one\nline two\ttabbed\r\nthree',
      steps: [{ title: hostile, lines: [line(hostile, 'black', 0, hostile.replace(/&/g, '&amp;').replace(/</g, '&lt;'))], media: { type: 'image', data: [] } }],
    });
    const xml = guideDocument(body, { raw: true });
    expect(await validateOmanual('guide', [{ name: 'hostile', xml: withoutRawAttributes(xml) }])).toEqual({ valid: true, errors: [] });
    const doc = parse(xml);
    const expected = 'Title <script>alert(1)</script> & "quotes" \u007f &lt;not an entity&gt; ]]> end';
    expect(elements(doc, 'title')[0]!.textContent).toBe(expected);
    expect(elements(doc, 'step')[0]!.getAttribute('title')).toBe(expected);
    expect(elements(doc, 'line')[0]!.getAttribute('text_raw')).toBe(expected);
    expect(elements(doc, 'line')[0]!.textContent).toBe(expected);
    expect(elements(doc, 'line')[0]!.getElementsByTagName('script')).toHaveLength(0);
    expect(elements(doc, 'summary')[0]!.textContent).toBe('<![CDATA[ x ]]> <!-- comment --> <?pi x?>');
    expect(xml).toContain('introduction_raw="line one&#10;line two&#9;tabbed&#13;&#10;three"');
  });

  it('indent with pretty and stay valid', async () => {
    const xml = guideDocument(guide(), { raw: false, pretty: true });
    expect(xml).toMatch(/\n {2}<title/);
    expect(await validateOmanual('guide', [{ name: 'pretty', xml }])).toEqual({ valid: true, errors: [] });
  });
});
