import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

export interface CachedBody {
  /**
   * The body's compact JSON, gzipped: only these bytes are kept (a parsed body takes several times
   * the size of its JSON, and JSON compresses about sevenfold), sent as they are to clients that
   * accept gzip and inflated for the others.
   */
  readonly gzip: Buffer;
  /** A strong ETag of the JSON: a hash of exactly its bytes. */
  readonly etag: string;
  /** The ETag of the gzipped representation. */
  readonly etagGzip: string;
  readonly version: string;
  readonly storedAt: number;
}

export function jsonOf(entry: CachedBody): Buffer {
  return gunzipSync(entry.gzip);
}

export interface GuideBodyCacheOptions {
  /** The budget for the (gzipped) bytes held (0: cache nothing). */
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
  private readonly entries = new Map<string, CachedBody>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly options: GuideBodyCacheOptions,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  get(key: string, version: string): CachedBody | null {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version || this.now() - entry.storedAt > this.options.maxAgeMs) {
      this.misses++;
      return null;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry;
  }

  /** Serializes and keeps the body (unless it alone exceeds the budget); returns the entry and its JSON either way. */
  put(key: string, version: string, body: object): { entry: CachedBody; json: Buffer } {
    const json = Buffer.from(JSON.stringify(body));
    const gzip = gzipSync(json);
    const hash = createHash('sha256').update(json).digest('base64url').slice(0, 27);
    const entry: CachedBody = { gzip, etag: `"${hash}"`, etagGzip: `"${hash}-gzip"`, version, storedAt: this.now() };
    this.remove(key);
    if (gzip.length <= this.options.maxBytes) {
      this.entries.set(key, entry);
      this.bytes += gzip.length;
      for (const [oldest, old] of this.entries) {
        if (this.bytes <= this.options.maxBytes) break;
        this.entries.delete(oldest);
        this.bytes -= old.gzip.length;
      }
    }
    return { entry, json };
  }

  private remove(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.gzip.length;
  }
}

/** Whether an `If-None-Match` header names this ETag (or is `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
