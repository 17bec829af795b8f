import { LRUCache } from 'lru-cache';
import type { UserSummary } from '@rc/identity-contracts';
import type { UserParts } from './guide-body-template.js';

/** What guide bodies show of one user: the author object, and the name prerequisites show. */
export interface UserPart {
  readonly summary: UserSummary;
  readonly username: string;
}

/** What tells whether the database announced a change to users since a mark (GuideVersions). */
export interface UserAnnouncements {
  readonly sequence: number;
  usersUnchangedSince(mark: number, userIds: readonly number[]): boolean;
}

/**
 * The user parts of guide bodies (filled into templates), kept per process while the database
 * announces no change to the user (the `user_standings` channel: `forget` is called on each
 * announcement, `clear` when announcements may have been missed), and looked up in batches: the
 * users asked for while a lookup is pending join the next one, so concurrent misses share one set
 * of queries. Without a live listener nothing is kept and every body looks its users up.
 */
export class UserPartsCache {
  /** Least recently used first out (lru-cache: a `Map` kept in order costs V8 a scan of deleted slots per eviction). */
  private readonly known: LRUCache<number, UserPart>;
  private queued: { readonly ids: Set<number>; readonly done: Promise<Map<number, UserPart>> } | null = null;
  lookups = 0;
  /** Users found kept, and users looked up (the cache's hit and miss counts, for the metrics). */
  hits = 0;
  misses = 0;

  constructor(
    /** Looks users up (unknown or disabled ones get the parts of a deleted user). */
    private readonly fetch: (userIds: number[]) => Promise<Map<number, UserPart>>,
    private readonly announcements: UserAnnouncements,
    maxEntries = 20_000,
  ) {
    this.known = new LRUCache<number, UserPart>({ max: Math.max(1, maxEntries) });
  }

  get size(): number {
    return this.known.size;
  }

  async parts(userIds: readonly number[]): Promise<UserParts> {
    const found = new Map<number, UserPart>();
    const missing: number[] = [];
    for (const id of userIds) {
      const part = this.known.get(id);
      if (!part) missing.push(id);
      else {
        found.set(id, part);
      }
    }
    this.hits += found.size;
    this.misses += missing.length;
    if (missing.length) {
      const fetched = await this.load(missing);
      for (const id of missing) found.set(id, fetched.get(id)!);
    }
    const part = (id: number) => {
      const p = found.get(id);
      if (!p) throw new Error(`user ${id} was not looked up`);
      return p;
    };
    return { summary: (id) => part(id).summary, username: (id) => part(id).username };
  }

  forget(userId: number): void {
    this.known.delete(userId);
  }

  clear(): void {
    this.known.clear();
  }

  /** Joins the queued lookup (or queues one, run once the current turn of the event loop is done). */
  private load(ids: number[]): Promise<Map<number, UserPart>> {
    if (!this.queued) {
      const batch = new Set<number>();
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.queued = null;
        return this.run([...batch]);
      });
      this.queued = { ids: batch, done };
    }
    for (const id of ids) this.queued.ids.add(id);
    return this.queued.done;
  }

  private async run(ids: number[]): Promise<Map<number, UserPart>> {
    const mark = this.announcements.sequence;
    this.lookups++;
    const fetched = await this.fetch(ids);
    for (const id of ids) {
      const part = fetched.get(id);
      // Kept only when no change to the user was announced while it was read (and the listener is live).
      if (!part || !this.announcements.usersUnchangedSince(mark, [id])) continue;
      this.known.set(id, part);
    }
    return fetched;
  }
}
