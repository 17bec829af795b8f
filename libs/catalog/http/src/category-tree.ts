import type { CategoryNode } from '@rc/catalog-domain';

export type Tree = { [title: string]: Tree | null };

/** The category tree as a nested object keyed by title; leaves are `null` (built from one query). */
export function buildTree(nodes: readonly CategoryNode[]): Tree {
  const children = new Map<number | null, CategoryNode[]>();
  for (const node of nodes) {
    const siblings = children.get(node.parentId) ?? [];
    siblings.push(node);
    children.set(node.parentId, siblings);
  }
  const live = new Set(nodes.map((n) => n.id));
  const build = (parent: number | null, depth: number): Tree | null => {
    const kids = children.get(parent);
    if (!kids?.length || depth > 64) return null;
    return Object.fromEntries(kids.map((k) => [k.title, build(k.id, depth + 1)]));
  };
  // Roots: no parent, or a parent that is gone.
  const roots = nodes.filter((n) => n.parentId === null || !live.has(n.parentId));
  return Object.fromEntries(roots.map((r) => [r.title, build(r.id, 1)]));
}

export interface OrderedNode {
  readonly title: string;
  readonly display_title: string;
  readonly children: OrderedNode[];
}

/** `display=hierarchyOrder`: the same tree as ordered `{title, display_title, children}` nodes (`nodes` come ordered by title). */
export function buildOrderedTree(nodes: readonly CategoryNode[]): OrderedNode[] {
  const live = new Set(nodes.map((n) => n.id));
  const made = new Map<number, OrderedNode>(nodes.map((n) => [n.id, { title: n.title, display_title: n.displayTitle, children: [] }]));
  const roots: OrderedNode[] = [];
  for (const n of nodes) (n.parentId !== null && live.has(n.parentId) ? made.get(n.parentId)!.children : roots).push(made.get(n.id)!);
  return roots;
}

/**
 * `requireGuides`: the categories that hold a public guide, or have one somewhere below them
 * (`withGuides` are the titles of categories holding one). Every kept category keeps its
 * ancestors, so the tree stays connected. Linear in the number of categories.
 */
export function withGuidesInSubtree(nodes: readonly CategoryNode[], withGuides: ReadonlySet<string>): CategoryNode[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const keep = new Set<number>();
  for (const node of nodes) {
    if (!withGuides.has(node.title)) continue;
    // Walk up until a category already kept (its ancestors are kept too); the bound guards a loop.
    for (let current: CategoryNode | undefined = node, steps = 0; current && !keep.has(current.id) && steps <= nodes.length; steps++) {
      keep.add(current.id);
      current = current.parentId === null ? undefined : byId.get(current.parentId);
    }
  }
  return nodes.filter((n) => keep.has(n.id));
}

/**
 * A switch in the query string: on when present, unless its value says off (`0`, `false`, `no`,
 * `off`), so `requireGuides=0` does what a client means.
 */
export function switchedOn(query: Record<string, unknown>, name: string): boolean {
  if (!Object.prototype.hasOwnProperty.call(query, name)) return false;
  const raw = query[name];
  const value = Array.isArray(raw) ? raw.at(-1) : raw;
  return !(typeof value === 'string' && ['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase()));
}
