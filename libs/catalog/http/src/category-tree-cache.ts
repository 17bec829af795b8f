import { parse } from 'node:querystring';
import type { CategoryNode } from '@rc/catalog-domain';
import { hashOf, SerializedJson, StampedBodies } from '@rc/shared-http';
import { switchedOn } from './category-tree.js';

interface Entry {
  readonly version: string;
  readonly nodes: readonly CategoryNode[];
  /** Bodies built from these nodes, by variant: the value and its compact JSON. */
  readonly bodies: Map<string, { value: unknown; json: SerializedJson }>;
}

/**
 * The category tree of this process, checked against the database on every read: one cheap
 * version lookup (`version`), and the nodes (`load`) and the bodies built from them only when that
 * version changed. A version read before the nodes are loaded can only be older than them, so a
 * read after a write never answers the tree from before it; concurrent misses share one load.
 * With read replicas, keep two versions (the ones used last): requests reading the primary and
 * requests reading a replica not yet past a change then each find theirs, rather than loading in turn.
 */
export class CategoryTreeCache {
  /** Most recently used last. */
  private readonly entries: Entry[] = [];
  private readonly loading = new Map<string, Promise<Entry>>();
  /** Reads answered from the nodes kept, and reads that loaded them (for the metrics). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly version: () => Promise<string>,
    private readonly load: () => Promise<readonly CategoryNode[]>,
    /** How many versions are kept (1: the current one; 2 with read replicas, see above). */
    private readonly keep = 1,
  ) {}

  /** The live category nodes, current as of this call. */
  async nodes(): Promise<readonly CategoryNode[]> {
    return (await this.current()).nodes;
  }

  /** A body built by `build` from the current nodes, kept with them under `variant`. */
  async body(variant: string, build: (nodes: readonly CategoryNode[]) => unknown): Promise<{ value: unknown; json: SerializedJson }> {
    const entry = await this.current();
    let body = entry.bodies.get(variant);
    if (!body) {
      const value = build(entry.nodes);
      const json = Buffer.from(JSON.stringify(value));
      body = { value, json: new SerializedJson(json, null, hashOf(json)) };
      entry.bodies.set(variant, body);
    }
    return body;
  }

  private async current(): Promise<Entry> {
    const version = await this.version();
    const at = this.entries.findIndex((entry) => entry.version === version);
    if (at >= 0) {
      this.hits++;
      const kept = this.entries[at]!;
      // Most recently used last: the one evicted is the one not asked for longest.
      if (at !== this.entries.length - 1) this.entries.push(...this.entries.splice(at, 1));
      return kept;
    }
    this.misses++;
    let pending = this.loading.get(version);
    if (!pending) {
      pending = this.load().then(
        (nodes) => {
          const entry: Entry = { version, nodes, bodies: new Map() };
          this.entries.push(entry);
          if (this.entries.length > this.keep) this.entries.shift();
          this.loading.delete(version);
          return entry;
        },
        (error: unknown) => {
          this.loading.delete(version);
          throw error;
        },
      );
      this.loading.set(version, pending);
    }
    return pending;
  }
}

/**
 * `GET /categories` (the tree, with or without display titles) kept with the content stamp read
 * before it was checked (see StampedBodies; the hot path serves it ahead of Express): while the
 * stamp reads the same, no statement runs; after any change the tree's version is looked up again
 * and its bytes kept anew when that version still holds (CategoryTreeCache: the same buffer, sent
 * as it is). With `requireGuides`, the answer depends on the guides and is built each time.
 */
export class CategoryTreeBodies extends StampedBodies {}

/**
 * The key a `GET /categories` URL (path and query as sent) keeps its answer under: the URL itself,
 * as serveStamped keeps it; `null` with `requireGuides` (the route's own rule, on the query as
 * Express's simple parser reads it), whose answers are never kept.
 */
export function keptTreeKey(url: string): string | null {
  const at = url.indexOf('?');
  return at >= 0 && switchedOn(parse(url.slice(at + 1)), 'requireGuides') ? null : url;
}
