import { categoryDocument, writeCategoryDocument, type CategoryBody, type CategoryGuideBody } from './omanual-category.mapper.js';
import { StreamingXmlWriter } from '@rc/shared-http';
import { parseXml, validateOmanual, withoutRawAttributes } from '@rc/shared-http/testing';

const BASE = 'https://repair.example';

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

function category(overrides: Partial<CategoryBody> = {}): CategoryBody {
  return {
    title: 'iPhone 12',
    display_title: 'iPhone 12',
    locale: 'en',
    topic_info: { name: 'iPhone 12', manufacturer: null, introduced: null, discontinued: null },
    image: image(1001),
    description: 'Apple phone from 2020.',
    flags: [],
    ancestors: ['iPhone', 'Phone', 'Electronics'],
    children: ['iPhone 12 mini'],
    solutions: { url: `${BASE}/Answers/Device/iPhone_12`, count: 0 },
    parts: { categories: [] },
    tools: [],
    guides: [
      { guideid: 2, title: 'iPhone 12 Battery Replacement', subject: 'Battery', type: 'replacement', url: `${BASE}/Guide/iPhone+12+Battery+Replacement/2`, image: null },
      { guideid: 3, title: 'iPhone 12 Opening Procedure', subject: 'Opening', type: 'technique', url: `${BASE}/Guide/iPhone+12+Opening+Procedure/3`, image: image(9) },
    ],
    contents_raw: '== Repair ==\nMost repairs start with the [guide|3|opening procedure].',
    contents_rendered: '<h2 id="Section_Repair">Repair</h2><p>Most repairs start with the <a href="/Guide/x/3">opening procedure</a>.</p>',
    ...overrides,
  };
}

const parse = parseXml;

describe('oManual category documents', () => {
  it('validate against omanual_category.xsd once contents_raw is removed', async () => {
    const xml = await categoryDocument(category(), { raw: true });
    expect(xml).toContain('contents_raw=');
    expect(await validateOmanual('category', [{ name: 'category', xml: withoutRawAttributes(xml) }])).toEqual({ valid: true, errors: [] });
  });

  it('validate with no image, flags, parts, tools and years', async () => {
    const body = category({
      image: null,
      flags: ['CATEGORY_FEATURED', { flagid: 'X', title: 'X flag', text: 'about X' }],
      topic_info: { name: 'iPhone 12', manufacturer: 'Apple', introduced: '2020', discontinued: null },
      parts: { categories: [{ tag: 'Batteries', count: 3, url: `${BASE}/Parts/iPhone_12/Batteries` }] },
      tools: [{ text: 'Spudger', url: `${BASE}/Tools/Spudger` }],
      guides: [],
      ancestors: [],
      children: [],
    });
    const xml = await categoryDocument(body, { raw: false });
    expect(await validateOmanual('category', [{ name: 'category', xml }])).toEqual({ valid: true, errors: [] });
    expect(parse(xml).getElementsByTagName('category_info')[0]!.getAttribute('introduced')).toBe('2020');
  });

  it('list guides with their archive paths, and stream a long list through the sink in pieces', async () => {
    const many = function* (): Generator<CategoryGuideBody> {
      for (let i = 1; i <= 3000; i++) yield { guideid: i, title: `Guide number ${i}`, subject: '', type: 'repair', url: `${BASE}/Guide/${i}`, image: null };
    };
    const pieces: string[] = [];
    const w = new StreamingXmlWriter();
    await writeCategoryDocument(w, category(), { raw: false, sink: async (text) => void pieces.push(text) }, many());
    pieces.push(w.end());
    expect(pieces.length).toBeGreaterThan(2);
    const xml = pieces.join('');
    const paths = Array.from(parse(xml).getElementsByTagName('path')).map((p) => p.textContent);
    expect(paths).toHaveLength(3000);
    expect(paths[0]).toBe('Guide-number-1-1/guide.xml');
    expect(await validateOmanual('category', [{ name: 'long', xml }])).toEqual({ valid: true, errors: [] });
  });
});
