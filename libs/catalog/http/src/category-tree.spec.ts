import type { CategoryNode } from '@rc/catalog-domain';
import { buildTree, switchedOn, withGuidesInSubtree } from './category-tree.js';

const node = (id: number, title: string, parentId: number | null = null): CategoryNode => ({ id, title, displayTitle: title, parentId });

// Electronics › Phone › iPhone › iPhone 12; Electronics › Console; Appliance › Kettle
const NODES = [
  node(1, 'Electronics'),
  node(2, 'Phone', 1),
  node(3, 'iPhone', 2),
  node(4, 'iPhone 12', 3),
  node(5, 'Console', 1),
  node(6, 'Appliance'),
  node(7, 'Kettle', 6),
];

describe('buildTree', () => {
  it('nests titles under their parents, leaves null', () => {
    expect(buildTree(NODES)).toEqual({ Electronics: { Phone: { iPhone: { 'iPhone 12': null } }, Console: null }, Appliance: { Kettle: null } });
    expect(buildTree([])).toEqual({});
  });

  it('makes a root of a node whose parent is not in the list', () => {
    expect(buildTree([node(3, 'iPhone', 2), node(4, 'iPhone 12', 3)])).toEqual({ iPhone: { 'iPhone 12': null } });
  });
});

describe('withGuidesInSubtree', () => {
  const titles = (withGuides: string[]) => withGuidesInSubtree(NODES, new Set(withGuides)).map((n) => n.title);

  it('keeps the categories holding guides and all their ancestors, nothing else', () => {
    expect(titles(['iPhone 12'])).toEqual(['Electronics', 'Phone', 'iPhone', 'iPhone 12']);
    expect(titles(['Kettle', 'Console'])).toEqual(['Electronics', 'Console', 'Appliance', 'Kettle']);
    expect(titles(['Phone'])).toEqual(['Electronics', 'Phone']);
    expect(titles([])).toEqual([]);
    expect(titles(['No Such Category'])).toEqual([]);
  });

  it('gives a connected tree', () => {
    expect(buildTree(withGuidesInSubtree(NODES, new Set(['iPhone 12', 'Kettle'])))).toEqual({ Electronics: { Phone: { iPhone: { 'iPhone 12': null } } }, Appliance: { Kettle: null } });
  });

  it('ends on a parent loop instead of walking forever', () => {
    const loop = [node(1, 'A', 2), node(2, 'B', 1)];
    expect(withGuidesInSubtree(loop, new Set(['A'])).map((n) => n.title)).toEqual(['A', 'B']);
  });
});

describe('switchedOn', () => {
  it('is on when present with no value or a value that does not say off', () => {
    for (const value of ['', '1', 'true', 'yes', 'anything']) expect(switchedOn({ requireGuides: value }, 'requireGuides')).toBe(true);
    for (const value of ['0', 'false', 'FALSE', 'no', 'off', ' Off ']) expect(switchedOn({ requireGuides: value }, 'requireGuides')).toBe(false);
    expect(switchedOn({}, 'requireGuides')).toBe(false);
    expect(switchedOn({ requireGuides: ['1', '0'] }, 'requireGuides')).toBe(false);
  });
});
