import type { CategoryItems, CategoryItemView } from '../ports/guide-queries.js';

/** One guide's parts and tools as stored (JSON arrays of items; anything else lists nothing). */
export interface GuideItemLists {
  readonly parts: unknown;
  readonly tools: unknown;
}

/** The key items merge by: the name with runs of white space made one space, trimmed, lower case. */
export function itemNameKey(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A stored field as text, as PostgreSQL's `->>` reads it: a string as it is, any other JSON value as its JSON, none as null. */
function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The first non-empty text of `field` among the items, in their order. */
function firstFilled(items: readonly Record<string, unknown>[], field: string): string | null {
  for (const item of items) {
    const text = textOf(item[field]);
    if (text) return text;
  }
  return null;
}

/** A quantity as an item needs it: a JSON number rounded half away from zero, otherwise 1. */
function quantityOf(item: Record<string, unknown>): number {
  const q = item['quantity'];
  return typeof q === 'number' && Number.isFinite(q) ? Math.sign(q) * Math.round(Math.abs(q)) : 1;
}

/**
 * Code point order (the order of the strings' UTF-8 bytes): the same on every server and locale.
 * At the first UTF-16 unit that differs, the code points there decide (a surrogate pair's, whole).
 */
function byCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.codePointAt(i)! - b.codePointAt(i)!;
  }
  return a.length - b.length;
}

interface Group {
  readonly key: string;
  readonly items: Record<string, unknown>[];
  readonly guides: Set<number>;
}

function merge(lists: readonly unknown[]): CategoryItemView[] {
  const groups = new Map<string, Group>();
  lists.forEach((list, guide) => {
    if (!Array.isArray(list)) return;
    for (const item of list as unknown[]) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
      const fields = item as Record<string, unknown>;
      if (typeof fields['text'] !== 'string') continue;
      const key = itemNameKey(fields['text']);
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { key, items: [], guides: new Set() }));
      group.items.push(fields);
      group.guides.add(guide);
    }
  });
  const merged = [...groups.values()].map((g) => ({
    key: g.key,
    view: {
      text: g.items[0]!['text'] as string,
      type: firstFilled(g.items, 'type') ?? '',
      quantity: Math.max(...g.items.map(quantityOf)),
      url: firstFilled(g.items, 'url'),
      thumbnail: firstFilled(g.items, 'thumbnail'),
      isoptional: g.items.every((item) => item['isoptional'] === true),
      featured: g.items.some((item) => item['featured'] === true),
      guides: g.guides.size,
    } satisfies CategoryItemView,
  }));
  merged.sort((a, b) => b.view.guides - a.view.guides || byCodePoints(a.key, b.key) || byCodePoints(a.view.text, b.view.text));
  return merged.map((m) => m.view);
}

/**
 * The parts and tools of a category's public guides, given in guide id order, merged as
 * CategoryItemView says: by name (case and runs of white space ignored), the first spelling and
 * the first non-empty `type`, `url` and `thumbnail` in guide order then each guide's item order,
 * the largest `quantity`, `isoptional` when every listing says so, `featured` when any does. Each
 * list is ordered by the number of guides listing the item, most first, then by the merged name
 * and the spelling in code point order. Items without a text name are left out.
 */
export function mergeCategoryItems(guides: readonly GuideItemLists[]): CategoryItems {
  return { parts: merge(guides.map((g) => g.parts)), tools: merge(guides.map((g) => g.tools)) };
}
