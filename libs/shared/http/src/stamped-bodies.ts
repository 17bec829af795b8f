import { LRUCache } from 'lru-cache';
import { hashOf } from './conditional.js';
import type { Request } from 'express';
import { gzipToKeep, KeptAnswer, SerializedJson, wantsPretty, type KeptJson } from './respond.js';
import { stampFor } from './hot-path.js';

/** A body kept with the content stamp read before it was built, its compact JSON and the hash of those bytes. */
export interface StampedBody<T> extends KeptJson {
  readonly stamp: string;
  /**
   * Its bytes: a string, or a buffer when it came serialized (see {@link StampedBodies.put}); in a
   * cache that keeps its bodies gzipped, those bytes gzipped (`gzipped`: see {@link jsonOf}).
   */
  readonly json: string | Buffer;
  /** The hash of its JSON (before any gzip). */
  readonly hash: string;
  /** What the route needs besides the bytes (the revision a page represents, the id a view counts). */
  readonly extra: T;
  /** When it was built (ms). */
  readonly at: number;
  /**
   * When the oldest data it shows was read (ms), when that was before the stamp was: it is served
   * at most `maxAgeMs` after that. `null`: everything was read after the stamp, so it is exact
   * while the stamp reads the same, whatever its age.
   */
  readonly since: number | null;
}

/** A body as built, with when the oldest data it shows was read (see {@link StampedBody.since}). */
export interface BuiltBody<T> {
  readonly body: unknown;
  readonly extra: T;
  /** Default: when it was built. */
  readonly since?: number | null;
}

/**
 * What a body kept gzipped costs in the budget besides its bytes and key: its object, stamp, hash
 * and the cache's slots for it (a page or answer kept gzipped is 2 to 5 KB, so this is a tenth of
 * it or less).
 */
export const GZIPPED_ENTRY_OVERHEAD_BYTES = 256;

export interface StampedBodiesOptions {
  /**
   * Keep each body gzipped (level 1, about a fifth of its JSON; inflated when sent, never for a
   * 304): for caches of many keys read few times each, where five times as many bodies in the same
   * bytes spare more builds than the inflation costs (category pages, search answers).
   */
  readonly gzip?: boolean;
}

/**
 * Serialized bodies of lists and pages, each kept with the content stamp read before it was built
 * (ContentStampReader): served while the stamp reads the same, so a change committed anywhere is
 * seen by the next read on every instance, and a revalidation costs the stamp's one statement
 * instead of the lookups, the presentation and the hash of a body. Least recently used first out
 * within a byte budget (UTF-16 length of the JSON, twice the characters; for a body kept gzipped,
 * its gzip and {@link GZIPPED_ENTRY_OVERHEAD_BYTES}).
 */
export class StampedBodies<T = null> {
  private readonly entries: LRUCache<string, StampedBody<T>> | null;
  /** Builds under way, per stamp and key (see {@link build}). */
  private readonly building = new Map<string, Promise<StampedBody<T>>>();
  hits = 0;
  misses = 0;
  /** Misses answered by a build another request had started (for the metrics and the tests). */
  shared = 0;

  /**
   * `maxAgeMs`: a body is served at most this long after it was built (or after the oldest data it
   * was built from was read: {@link StampedBody.since}), whatever the stamp (for bodies built from
   * rankings that may lag: search); a body that says it was built only from data read after the
   * stamp is served as long as the stamp reads the same.
   */
  constructor(
    maxBytes: number,
    private readonly maxAgeMs = Infinity,
    private readonly now: () => number = Date.now,
    private readonly options: StampedBodiesOptions = {},
  ) {
    this.entries =
      maxBytes > 0
        ? new LRUCache<string, StampedBody<T>>({
            maxSize: maxBytes,
            sizeCalculation: (e, key) => Math.max(1, (typeof e.json === 'string' ? 2 * e.json.length : e.json.length) + 2 * key.length + (e.gzipped ? GZIPPED_ENTRY_OVERHEAD_BYTES : 0)),
          })
        : null;
  }

  get enabled(): boolean {
    return this.entries !== null;
  }

  /** The body kept for `key` built after this very stamp, else null. */
  get(key: string, stamp: string): StampedBody<T> | null {
    const entry = this.peek(key, stamp);
    if (entry) this.hits++;
    else this.misses++;
    return entry;
  }

  /** {@link get} without counting a hit or a miss (the hot path counts its hits; its misses go on to the route, which counts them). */
  peek(key: string, stamp: string): StampedBody<T> | null {
    const entry = this.entries?.get(key);
    return entry && entry.stamp === stamp && (entry.since === null || this.now() - entry.since < this.maxAgeMs) ? entry : null;
  }

  /**
   * Keeps the body (serialized here; an uncompressed SerializedJson is kept as its bytes, string or
   * buffer, with its hash when it has one) built after `stamp` was read; answers it ready to send.
   * `since`: see {@link StampedBody.since} (default: now). In a cache that keeps its bodies gzipped,
   * the answer is the entry with its JSON as it is and the gzip kept beside it (`gzip`: nothing to
   * inflate for one client, nothing to compress again for another).
   */
  put(key: string, stamp: string, body: unknown, extra: T, since?: number | null): StampedBody<T> {
    const serialized = body instanceof SerializedJson && body.encoding === null ? body : null;
    const json = serialized ? serialized.json : JSON.stringify(body);
    const at = this.now();
    const entry: StampedBody<T> = { stamp, json, gzipped: false, hash: serialized?.hash ?? hashOf(json), extra, at, since: since === undefined ? at : since };
    // Gzipped only to be kept: a cache that keeps nothing answers the JSON as it is.
    if (this.options.gzip === true && this.entries !== null) {
      const gzip = gzipToKeep(json);
      this.entries.set(key, { ...entry, json: gzip, gzipped: true });
      return { ...entry, gzip };
    }
    this.entries?.set(key, entry);
    return entry;
  }

  /**
   * Builds and keeps the body of `key` after `stamp` was read, once for every request that misses
   * it meanwhile: concurrent misses of the same key and stamp wait for the build the first one
   * started (and share its failure), instead of each running the same queries at once (a hot
   * answer expiring under load is asked for by every connection within milliseconds).
   */
  build(key: string, stamp: string, make: () => Promise<BuiltBody<T>>): Promise<StampedBody<T>> {
    const flight = `${stamp}\n${key}`;
    const under = this.building.get(flight);
    if (under) {
      this.shared++;
      return under;
    }
    const built = make()
      .then(({ body, extra, since }) => this.put(key, stamp, body, extra, since))
      .finally(() => this.building.delete(flight));
    this.building.set(flight, built);
    return built;
  }
}

/**
 * The kept body as a handler's answer, sent as it is sent ahead of Express (sendKeptJson): its JSON
 * with the ETag of its hash, or, from a cache that keeps bodies gzipped, its gzip to a client that
 * takes it (varying on `Accept-Encoding`).
 */
export function answerOf(entry: StampedBody<unknown>): KeptAnswer {
  return new KeptAnswer(entry, entry.hash);
}

/** Where the content stamp is read (ContentStampReader in the shared infra library). */
export interface StampSource {
  current(): Promise<string>;
  /** The server `current` reads now (a replica's index, `null`: the primary); default the primary. */
  server?(): number | null;
}

/**
 * Answers a GET from the kept body of its URL when the stamp still reads the same, else builds,
 * keeps and answers it, one build for all the requests that miss it at once (`?pretty` answers
 * are built each time and not kept).
 */
export async function serveStamped(bodies: StampedBodies, stamps: StampSource, req: Request, build: () => Promise<unknown>): Promise<unknown> {
  return serveStampedSince(bodies, stamps, req, async () => ({ body: await build() }));
}

/** {@link serveStamped} for builds that tell how old what they read is ({@link StampedBody.since}). */
export async function serveStampedSince(bodies: StampedBodies, stamps: StampSource, req: Request, build: () => Promise<{ body: unknown; since?: number | null }>): Promise<unknown> {
  if (!bodies.enabled || wantsPretty(req)) return (await build()).body;
  const stamp = await stampFor(req, stamps);
  const key = req.originalUrl;
  return answerOf(bodies.get(key, stamp) ?? (await bodies.build(key, stamp, async () => ({ ...(await build()), extra: null }))));
}
