import { LRUCache } from 'lru-cache';
import { hashOf } from './conditional.js';
import type { Request } from 'express';
import { SerializedJson, wantsPretty } from './respond.js';

/** A body kept with the content stamp read before it was built, its compact JSON and the hash of those bytes. */
export interface StampedBody<T> {
  readonly stamp: string;
  readonly json: string;
  readonly hash: string;
  /** What the route needs besides the bytes (the revision a page represents, the id a view counts). */
  readonly extra: T;
  /** When it was built (ms). */
  readonly at: number;
}

/**
 * Serialized bodies of lists and pages, each kept with the content stamp read before it was built
 * (ContentStampReader): served while the stamp reads the same, so a change committed anywhere is
 * seen by the next read on every instance, and a revalidation costs the stamp's one statement
 * instead of the lookups, the presentation and the hash of a body. Least recently used first out
 * within a byte budget (UTF-16 length of the JSON, twice the characters).
 */
export class StampedBodies<T = null> {
  private readonly entries: LRUCache<string, StampedBody<T>> | null;
  hits = 0;
  misses = 0;

  /**
   * `maxAgeMs`: a body is served at most this long after it was built, whatever the stamp (for
   * bodies built from rankings that may lag: search).
   */
  constructor(
    maxBytes: number,
    private readonly maxAgeMs = Infinity,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = maxBytes > 0 ? new LRUCache<string, StampedBody<T>>({ maxSize: maxBytes, sizeCalculation: (e, key) => Math.max(1, 2 * (e.json.length + key.length)) }) : null;
  }

  get enabled(): boolean {
    return this.entries !== null;
  }

  /** The body kept for `key` built after this very stamp, else null. */
  get(key: string, stamp: string): StampedBody<T> | null {
    const entry = this.entries?.get(key);
    if (entry && entry.stamp === stamp && this.now() - entry.at < this.maxAgeMs) {
      this.hits++;
      return entry;
    }
    this.misses++;
    return null;
  }

  /** Keeps the body (serialized here) built after `stamp` was read; answers it ready to send. */
  put(key: string, stamp: string, body: unknown, extra: T): StampedBody<T> {
    const json = JSON.stringify(body);
    const entry: StampedBody<T> = { stamp, json, hash: hashOf(json), extra, at: this.now() };
    this.entries?.set(key, entry);
    return entry;
  }
}

/** The kept body as a handler's answer: its bytes sent as they are, with the ETag of their hash (see conditionalGet). */
export function answerOf(entry: StampedBody<unknown>): SerializedJson {
  return new SerializedJson(entry.json, null, entry.hash);
}

/** Where the content stamp is read (ContentStampReader in the shared infra library). */
export interface StampSource {
  current(): Promise<string>;
}

/**
 * Answers a GET from the kept body of its URL when the stamp still reads the same, else builds,
 * keeps and answers it (`?pretty` answers are built each time and not kept).
 */
export async function serveStamped(bodies: StampedBodies, stamps: StampSource, req: Request, build: () => Promise<unknown>): Promise<unknown> {
  if (!bodies.enabled || wantsPretty(req)) return build();
  const stamp = await stamps.current();
  const key = req.originalUrl;
  return answerOf(bodies.get(key, stamp) ?? bodies.put(key, stamp, await build(), null));
}
