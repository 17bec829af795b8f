import { itemNameKey, mergeCategoryItems } from './category-items.js';

describe('mergeCategoryItems', () => {
  it('merges by name, case and runs of white space ignored; the first spelling and first non-empty type, url and thumbnail win', () => {
    const { parts } = mergeCategoryItems([
      { parts: [{ text: 'Gasket', type: '', quantity: 2 }, { text: 'Heating Element' }], tools: [] },
      { parts: [{ text: '  gasket ', type: 'Silicone', quantity: 4, url: 'https://example.com/gasket' }, { text: 'Fuse', thumbnail: 'https://example.com/fuse.jpg' }], tools: [] },
      { parts: [{ text: "GASKET\t", type: 'Rubber', quantity: 3, url: 'https://example.com/other', thumbnail: 'https://example.com/g.jpg' }], tools: [] },
    ]);
    expect(parts).toEqual([
      { text: 'Gasket', type: 'Silicone', quantity: 4, url: 'https://example.com/gasket', thumbnail: 'https://example.com/g.jpg', isoptional: false, featured: false, guides: 3 },
      { text: 'Fuse', type: '', quantity: 1, url: null, thumbnail: 'https://example.com/fuse.jpg', isoptional: false, featured: false, guides: 1 },
      { text: 'Heating Element', type: '', quantity: 1, url: null, thumbnail: null, isoptional: false, featured: false, guides: 1 },
    ]);
  });

  it('is optional only when every listing says so, featured when any does; a guide listing an item twice counts once', () => {
    const { tools } = mergeCategoryItems([
      { parts: null, tools: [{ text: 'Spudger', isoptional: true }, { text: 'spudger', isoptional: true, featured: 'true' }] },
      { parts: null, tools: [{ text: 'Spudger', isoptional: 'true' }, { text: 'Torx T10', featured: true }] },
      { parts: null, tools: [{ text: 'Torx  T10', isoptional: true }] },
    ]);
    expect(tools.map((t) => [t.text, t.guides, t.isoptional, t.featured])).toEqual([
      ['Spudger', 2, false, false],
      ['Torx T10', 2, false, true],
    ]);
    expect(mergeCategoryItems([{ parts: [], tools: [{ text: 'Pick', isoptional: true }] }, { parts: [], tools: [{ text: 'pick', isoptional: true }] }]).tools[0]!.isoptional).toBe(true);
  });

  it('takes the largest quantity a guide needs: numbers rounded half away from zero, anything else counts as 1', () => {
    const quantity = (...quantities: unknown[]) => mergeCategoryItems(quantities.map((quantity) => ({ parts: [{ text: 'Screw', quantity }], tools: [] }))).parts[0]!.quantity;
    expect(quantity(2.5, 1)).toBe(3);
    expect(quantity(-2.5)).toBe(-3);
    expect(quantity('7', null)).toBe(1);
    expect(quantity(0)).toBe(0);
    expect(quantity(0, undefined)).toBe(1);
  });

  it('reads other JSON values of type, url and thumbnail as their JSON text, as the stored lists give them', () => {
    const [part] = mergeCategoryItems([{ parts: [{ text: 'Cable', type: 12, url: { href: 'x' } }], tools: [] }]).parts;
    expect(part).toEqual(expect.objectContaining({ type: '12', url: '{"href":"x"}', thumbnail: null }));
  });

  it('leaves out lists that are not arrays and items without a text name', () => {
    const items = mergeCategoryItems([
      { parts: { text: 'Not a list' }, tools: 'nor this' },
      { parts: [null, 3, 'Bare string', [{ text: 'Nested' }], { name: 'No text' }, { text: 42 }, { text: 'Kept' }], tools: undefined },
    ]);
    expect(items).toEqual({ parts: [expect.objectContaining({ text: 'Kept', guides: 1 })], tools: [] });
  });

  it('orders by the number of guides, most first, then by the merged name in code point order, then by spelling', () => {
    const { parts } = mergeCategoryItems([
      { parts: [{ text: 'b' }, { text: 'Éclair' }, { text: 'a' }, { text: '😀 Smile' }, { text: 'ﬀ ligature' }, { text: 'Z' }], tools: [] },
      { parts: [{ text: 'Z' }], tools: [] },
    ]);
    // 'z' in two guides; then a < b < é (U+00E9) < ﬀ (U+FB00) < 😀 (U+1F600), whatever UTF-16 would say.
    expect(parts.map((p) => p.text)).toEqual(['Z', 'a', 'b', 'Éclair', 'ﬀ ligature', '😀 Smile']);
  });

  it('gives empty lists for no guides', () => {
    expect(mergeCategoryItems([])).toEqual({ parts: [], tools: [] });
  });
});

describe('itemNameKey', () => {
  it('lowers the case, collapses runs of white space to one space and trims', () => {
    expect(itemNameKey('  Torx\t\nT10   Screwdriver ')).toBe('torx t10 screwdriver');
  });
});
