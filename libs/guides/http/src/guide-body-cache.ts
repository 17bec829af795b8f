import { gunzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { etagOf, gzipEtagOf, gzipToKeep, hashOf, INFLATED_SHARE } from '@rc/shared-http';
import { viewsIn, withViews } from './guide-body-template.js';

export interface CachedBody {
  /**
   * The body's compact JSON, gzipped: only these bytes are kept (a parsed body takes several times
   * the size of its JSON, and JSON compresses about sevenfold), sent as they are to clients that
   * accept gzip and inflated for the others.
   */
  readonly gzip: Buffer;
  /**
   * A strong ETag of the JSON: a hash of exactly its bytes, named by the guide's revision as every
   * ETag of a versioned resource is (`"r<revisionid>-<hash>"`: a write may send it as `If-Match`).
   */
  readonly etag: string;
  /** The ETag of the gzipped representation. */
  readonly etagGzip: string;
  /** `Last-Modified` (an HTTP date): the later of the guide's and its prerequisites' modification. */
  readonly lastModified: string | null;
  readonly version: string;
  /** The cache key it is kept under (when kept). */
  readonly key: string;
  readonly storedAt: number;
  /** The users the body shows (author objects): a change to one of them drops the entry. */
  readonly users: readonly number[];
  /**
   * Kept until a change announced by the database drops it (the listener heard every change since
   * the body was built); otherwise served for `maxAgeMs` only.
   */
  readonly pinned: boolean;
  /** The `views` the body shows (`null`: none), and the views window they were set in (see ViewWindows; `null`: no windows). */
  readonly views: number | null;
  readonly viewsWindow: number | null;
}

/**
 * What a kept body holds besides its gzip, counted in the budget: the entry's object, its key,
 * ETags, date and version strings, its users and the cache's own slots for it (about 500 bytes
 * measured in a heap snapshot of a full cache; bodies of 5 KB of gzip make it a tenth).
 */
export const ENTRY_OVERHEAD_BYTES = 512;

/** What an entry costs in the budget (see {@link ENTRY_OVERHEAD_BYTES}). */
export function entryBytes(entry: CachedBody): number {
  return entry.gzip.length + ENTRY_OVERHEAD_BYTES;
}

export function jsonOf(entry: CachedBody): Buffer {
  return gunzipSync(entry.gzip);
}

export interface GuideBodyCacheOptions {
  /** The budget for the bytes held: gzipped bodies and each entry's overhead (0: cache nothing). */
  readonly maxBytes: number;
  /**
   * How long an entry is served while its version holds. The version covers the guide and its
   * prerequisites; the authors' reputation and names embedded in the body are refreshed this often.
   */
  readonly maxAgeMs: number;
}

/**
 * Serialized guide bodies for anonymous readers, least recently used first out when the byte budget
 * is reached. An entry is served only for the version it was built from (checked by the caller
 * with one cheap query per request), so a write is visible to the next read on every instance.
 */
export class GuideBodyCache {
  /**
   * Least recently used first out within the byte budget (lru-cache: a `Map` kept in order by
   * deleting and re-inserting keys costs V8 a scan over the deleted slots at its front on every
   * eviction). An entry that goes, however, leaves the users' index (see `unindex`).
   */
  private readonly entries: LRUCache<string, CachedBody>;
  /** User id → keys of the entries that show the user. */
  private readonly byUser = new Map<number, Set<string>>();
  /** Keys of bodies recently not kept (see `admits`), least recently turned away first out. */
  private readonly turnedAway: LRUCache<string, true>;
  /**
   * The JSON of the bodies most recently sent inflated (to clients that do not take gzip), within
   * {@link INFLATED_SHARE} of the budget (a quarter): a hot body is inflated once, not on every 200. By entry, so a body
   * replaced (a new version, its views refreshed) is never answered with the bytes of the old one.
   */
  private readonly inflated: LRUCache<CachedBody, Buffer>;
  hits = 0;
  misses = 0;

  constructor(
    private readonly options: GuideBodyCacheOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache<string, CachedBody>({
      maxSize: Math.max(1, options.maxBytes),
      sizeCalculation: entryBytes,
      // `refreshViews` replaces an entry by one showing the same users: its index stays.
      noDisposeOnSet: true,
      dispose: (entry, key) => {
        this.unindex(key, entry);
        this.inflated.delete(entry);
      },
    });
    this.turnedAway = new LRUCache<string, true>({ max: Math.max(1024, Math.floor(options.maxBytes / 4096)) });
    this.inflated = new LRUCache<CachedBody, Buffer>({ maxSize: Math.max(1, Math.floor(options.maxBytes * INFLATED_SHARE)), sizeCalculation: (json) => Math.max(1, json.length) });
  }

  /** The body's JSON: inflated from its gzip, or as inflated last time (see `inflated`). */
  json(entry: CachedBody): Buffer {
    let json = this.inflated.get(entry);
    if (!json) {
      json = jsonOf(entry);
      // Only the entries kept: a body turned away would hold its bytes here for nothing.
      if (this.entries.peek(entry.key) === entry) this.inflated.set(entry, json);
    }
    return json;
  }

  private get bytes(): number {
    return this.entries.calculatedSize;
  }

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * The version of the body kept under this key (`''`: none), whether or not it may still be
   * served: a lookup of the current version need not read the stored body of that version.
   */
  heldVersion(key: string): string {
    return this.entries.peek(key)?.version ?? '';
  }

  get(key: string, version: string): CachedBody | null {
    const entry = this.entries.peek(key);
    if (!entry || entry.version !== version || (!entry.pinned && this.now() - entry.storedAt > this.options.maxAgeMs)) {
      this.misses++;
      return null;
    }
    // Most recently used.
    this.entries.get(key);
    this.hits++;
    return entry;
  }

  /**
   * Keeps a body already serialized (its compact JSON, as a string: a body sent once and dropped
   * never waits in a Buffer for the collector), which shows these users, when admitted: a
   * body is kept while the budget has room, or in place of its older version; once the budget is
   * spent, only a body missed before (recently) is kept, so the many bodies read once do not push
   * out those read again, and are not compressed unless a client asks for gzip.
   */
  put(key: string, version: string, json: string, users: readonly number[], pinned: boolean, viewsWindow: number | null = null): { entry: CachedBody; json: string } {
    // The version is the guide's revision id, then its prerequisites' (`<revisionid>.<highest>`).
    const etag = etagOf(hashOf(json), parseInt(version, 10) || null);
    const tags = { etag, etagGzip: gzipEtagOf(etag), lastModified: lastModifiedOf(json), version, key, storedAt: this.now(), users, pinned, views: viewsIn(json), viewsWindow };
    if (!this.admits(key)) {
      let gzip: Buffer | undefined;
      const entry: CachedBody = { ...tags, get gzip() { return (gzip ??= gzipToKeep(json)); } };
      return { entry, json };
    }
    const entry: CachedBody = { ...tags, gzip: gzipToKeep(json) };
    this.remove(key);
    if (entryBytes(entry) <= this.options.maxBytes) {
      // May drop the least recently used entries until the budget holds this one.
      this.entries.set(key, entry);
      for (const id of entry.users) {
        let keys = this.byUser.get(id);
        if (!keys) this.byUser.set(id, (keys = new Set()));
        keys.add(key);
      }
    }
    return { entry, json };
  }

  /**
   * Whether a body of this key is kept: always while the budget has room for one more body of the
   * average size, or when the key is kept already; else only when it was turned away before, among
   * the last keys turned away (as many as the budget holds of bodies of a few kilobytes).
   */
  private admits(key: string): boolean {
    const average = this.entries.size ? this.bytes / this.entries.size : 0;
    if (this.entries.has(key) || this.bytes + average <= this.options.maxBytes) return true;
    if (this.turnedAway.delete(key)) return true;
    this.turnedAway.set(key, true);
    return false;
  }

  /**
   * The body with its `views` set to `views` as of this views window (bytes, ETags and gzip made
   * again; the rest as it was), in place of `entry` when that is the one kept.
   */
  refreshViews(key: string, entry: CachedBody, views: number, viewsWindow: number | null = null): CachedBody {
    const json = withViews(this.json(entry).toString(), views);
    const etag = etagOf(hashOf(json), parseInt(entry.version, 10) || null);
    const next: CachedBody = { ...entry, gzip: gzipToKeep(json), etag, etagGzip: gzipEtagOf(etag), views, viewsWindow };
    if (this.entries.peek(key) === entry) {
      this.entries.set(key, next);
      this.inflated.delete(entry);
    }
    return next;
  }

  /** Drops every body that shows this user. */
  forgetUser(userId: number): void {
    for (const key of [...(this.byUser.get(userId) ?? [])]) this.remove(key);
  }

  /** Entries kept until announced changes are served for `maxAgeMs` from now on (the announcements stopped). */
  unpinAll(): void {
    // Least recently used first, so that setting each again keeps their order.
    const pinned: [string, CachedBody][] = [];
    this.entries.rforEach((entry, key) => void (entry.pinned && pinned.push([key, entry])));
    for (const [key, entry] of pinned) {
      const next = { ...entry, pinned: false };
      this.entries.set(key, next);
      const json = this.inflated.peek(entry);
      this.inflated.delete(entry);
      if (json) this.inflated.set(next, json);
    }
  }

  private remove(key: string): void {
    this.entries.delete(key);
  }

  /** Takes a body that goes (dropped, evicted or replaced by `put`) out of the users' index. */
  private unindex(key: string, entry: CachedBody): void {
    for (const id of entry.users) {
      const keys = this.byUser.get(id);
      keys?.delete(key);
      if (keys?.size === 0) this.byUser.delete(id);
    }
  }
}

/**
 * The guide body's `Last-Modified`: the later of its top-level `modified_date` and
 * `prereq_modified_date`, the last keys of that name in the body (prerequisite summaries come
 * before them; JSON escapes the quotes of any text, so no string can look like a key).
 */
export function lastModifiedOf(json: string): string | null {
  const at = json.lastIndexOf('"prereq_modified_date":');
  const from = at < 0 ? -1 : json.lastIndexOf('"modified_date":', at);
  if (from < 0) return null;
  const modified = parseInt(json.slice(from + 16, from + 32), 10);
  const prereq = parseInt(json.slice(at + 23, at + 39), 10);
  const seconds = Math.max(Number.isFinite(modified) ? modified : 0, Number.isFinite(prereq) ? prereq : 0);
  return seconds > 0 ? new Date(seconds * 1000).toUTCString() : null;
}

/**
 * Whether the request's conditions make the answer a 304 (RFC 9110 §13.2.2): its `If-None-Match`
 * names this ETag; without one, its `If-Modified-Since` is no earlier than `lastModified`.
 */
export function notModified(headers: { 'if-none-match'?: string; 'if-modified-since'?: string }, etag: string, lastModified: string | null): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) return matchesEtag(inm, etag);
  const ims = headers['if-modified-since'];
  if (!ims || !lastModified) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Date.parse(lastModified) <= since;
}

/** Whether an `If-None-Match` header names this ETag (or is `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
