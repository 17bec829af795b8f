import { createHash } from 'node:crypto';

export interface CachedBody {
  /** The body's compact JSON, sent as it is (only the bytes are kept: a parsed body takes several times their size). */
  readonly json: Buffer;
  /** A strong ETag: a hash of exactly those bytes. */
  readonly etag: string;
  readonly version: string;
  readonly storedAt: number;
}

export interface GuideBodyCacheOptions {
  /** The budget for the JSON bytes held (0: cache nothing). */
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

  /** Serializes and keeps the body (unless it alone exceeds the budget); returns the entry either way. */
  put(key: string, version: string, body: object): CachedBody {
    const json = Buffer.from(JSON.stringify(body));
    const entry: CachedBody = { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`, version, storedAt: this.now() };
    this.remove(key);
    if (json.length <= this.options.maxBytes) {
      this.entries.set(key, entry);
      this.bytes += json.length;
      for (const [oldest, old] of this.entries) {
        if (this.bytes <= this.options.maxBytes) break;
        this.entries.delete(oldest);
        this.bytes -= old.json.length;
      }
    }
    return entry;
  }

  private remove(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.json.length;
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
