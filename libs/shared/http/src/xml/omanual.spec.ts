import { parseXml } from '../testing/omanual-schema.js';
import { categoryPath, guideFolder, prerequisitePath, slug } from './omanual-paths.js';
import { xmlErrorDocument } from './xml-response.js';
import { anyUri } from './xml-writer.js';

const parse = parseXml;

describe('paths, URIs and error documents', () => {
  it('make file-name-safe, unique paths', () => {
    expect(slug('MacBook Pro 13" Two Thunderbolt Ports 2020 Teardown', 'guide')).toBe('MacBook-Pro-13-Two-Thunderbolt-Ports-2020-Teardown');
    expect(slug('Café ✓', 'guide')).toBe('Cafe');
    expect(slug('../../etc', 'guide')).toBe('etc');
    expect(slug('???', 'guide')).toBe('guide');
    expect(guideFolder(7, '日本語')).toBe('guide-7');
    expect(prerequisitePath(3, 'Opening')).toBe('../Opening-3/guide.xml');
    expect(categoryPath(5, 'iPhone 12')).toBe('iPhone-12-5.xml');
  });

  it('percent-encodes what a URI may not hold and keeps what is already encoded', () => {
    expect(anyUri('https://a.example/x y?q=1&r=%20')).toBe('https://a.example/x%20y?q=1&r=%20');
    expect(anyUri('https://a.example/"<>\u0001')).toBe('https://a.example/%22%3C%3E');
  });

  it('writes error bodies as XML with the JSON fields', () => {
    const xml = xmlErrorDocument({ message: 'Bad <input> & more\u0000', errors: [{ field: 'title', message: 'Too long', index: 2 }], requiredPrivileges: ['Admin'] }, false);
    const doc = parse(xml);
    expect(doc.documentElement.nodeName).toBe('error');
    expect(doc.getElementsByTagName('message')[0]!.textContent).toBe('Bad <input> & more');
    expect(doc.getElementsByTagName('privilege')[0]!.textContent).toBe('Admin');
    const field = doc.getElementsByTagName('field')[0]!;
    expect([field.getAttribute('name'), field.getAttribute('index'), field.textContent]).toEqual(['title', '2', 'Too long']);
  });
});
