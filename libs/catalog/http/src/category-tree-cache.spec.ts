import type { CategoryNode } from '@rc/catalog-domain';
import { CategoryTreeCache, keptTreeKey } from './category-tree-cache.js';

const node = (id: number, title: string, parentId: number | null = null): CategoryNode => ({ id, title, displayTitle: title, parentId });

function fixture(keep = 1) {
  const state = { version: 'v1', nodes: [node(1, 'Electronics'), node(2, 'Phone', 1)] as CategoryNode[], versionReads: 0, loads: 0, builds: 0 };
  const cache = new CategoryTreeCache(
    async () => {
      state.versionReads++;
      return state.version;
    },
    async () => {
      state.loads++;
      return [...state.nodes];
    },
    keep,
  );
  const build = (nodes: readonly CategoryNode[]) => {
    state.builds++;
    return nodes.map((n) => n.title);
  };
  return { state, cache, build };
}

describe('CategoryTreeCache', () => {
  it('loads the nodes once per version and checks the version on every read', async () => {
    const { state, cache } = fixture();
    expect((await cache.nodes()).map((n) => n.title)).toEqual(['Electronics', 'Phone']);
    await cache.nodes();
    expect(state.versionReads).toBe(2);
    expect(state.loads).toBe(1);

    state.version = 'v2';
    state.nodes.push(node(3, 'Kettle'));
    expect((await cache.nodes()).map((n) => n.title)).toEqual(['Electronics', 'Phone', 'Kettle']);
    expect(state.loads).toBe(2);
  });

  it('keeps one version by default: another version read loads again', async () => {
    const { state, cache } = fixture();
    await cache.nodes();
    state.version = 'v2';
    await cache.nodes();
    state.version = 'v1';
    await cache.nodes();
    expect(state.loads).toBe(3);
  });

  it('keeps the two versions used last when asked (a replica behind the primary still answers the older one), not three', async () => {
    const { state, cache } = fixture(2);
    await cache.nodes();
    state.version = 'v2';
    await cache.nodes();
    state.version = 'v1';
    await cache.nodes();
    expect(state.loads).toBe(2);
    state.version = 'v3';
    await cache.nodes();
    state.version = 'v1';
    await cache.nodes();
    state.version = 'v2';
    await cache.nodes();
    expect(state.loads).toBe(4);
  });

  it('builds each variant once per version and keeps its compact JSON', async () => {
    const { state, cache, build } = fixture();
    const first = await cache.body('a', build);
    expect(first.value).toEqual(['Electronics', 'Phone']);
    expect(first.json.json.toString()).toBe('["Electronics","Phone"]');
    expect(first.json.encoding).toBeNull();
    expect(await cache.body('a', build)).toBe(first);
    await cache.body('b', build);
    expect(state.builds).toBe(2);

    state.version = 'v2';
    state.nodes = [node(9, 'Appliance')];
    expect((await cache.body('a', build)).json.json.toString()).toBe('["Appliance"]');
    expect(state.builds).toBe(3);
  });

  it('shares one load between concurrent misses, and retries after a failed load', async () => {
    const { state, cache } = fixture();
    await Promise.all([cache.nodes(), cache.nodes(), cache.nodes()]);
    expect(state.loads).toBe(1);

    let fail = true;
    const failing = new CategoryTreeCache(
      async () => 'v1',
      async () => {
        if (fail) throw new Error('database down');
        return [node(1, 'Electronics')];
      },
    );
    await expect(failing.nodes()).rejects.toThrow('database down');
    fail = false;
    expect(await failing.nodes()).toEqual([node(1, 'Electronics')]);
  });
});

describe('keptTreeKey', () => {
  it('keys a tree by its URL as sent, and never one with requireGuides switched on (the route builds those each time)', () => {
    for (const url of ['/api/2.0/categories', '/api/2.0/categories?withDisplayTitles', '/api/2.0/categories?requireGuides=0', '/api/2.0/categories?requireGuides=false&withDisplayTitles', '/api/2.0/categories?requireGuidesX']) {
      expect(keptTreeKey(url)).toBe(url);
    }
    for (const url of ['/api/2.0/categories?requireGuides', '/api/2.0/categories?withDisplayTitles&requireGuides=1', '/api/2.0/categories?requireGuides=0&requireGuides=yes']) {
      expect(keptTreeKey(url)).toBeNull();
    }
  });
});
