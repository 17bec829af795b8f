import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** A public guide's version (`null`: not public, deleted or unknown) and the prerequisites it covers. */
export interface GuideVersionRow {
  readonly version: string;
  readonly prerequisites: readonly number[];
}

/** What announces on the versions channel (reads look versions up themselves: see `version`). */
export interface GuideVersionSource {
  /** Sends `payload` on the versions channel (a NOTIFY, delivered after everything committed before it). */
  notify(payload: string): Promise<void>;
}

/**
 * `lookup`: every read asks the database (one indexed query; strict on every instance).
 * `notify`: versions are remembered and forgotten when the database announces a change
 * (LISTEN/NOTIFY), so a cached body is served without a query; while the listener is away, reads
 * fall back to `lookup`.
 */
export type GuideCoherence = 'lookup' | 'notify';

export interface GuideVersionsOptions {
  readonly coherence: GuideCoherence;
  /** Versions remembered at most (oldest first out). */
  readonly maxEntries?: number;
  /** How long a write waits for its own announcement before the listener is taken for lost. */
  readonly barrierTimeoutMs?: number;
}

interface Known {
  readonly version: string | null;
  readonly prerequisites: readonly number[];
}

const SYNC = 'sync:';

/**
 * The current version of public guides, kept coherent with the database across instances.
 *
 * In `notify` mode a version read from the database is remembered until a `guide_versions`
 * notification names the guide or one of its prerequisites. Notifications are delivered in commit
 * order, so a lookup is remembered only if no notification for those guides arrived while it ran,
 * and everything is forgotten whenever the listener (re)connects or falls silent. A write calls
 * `barrier()` before it answers: it waits until the listener hears a marker notification sent after
 * the call, so its own change has been heard by then (by this instance, and by every other
 * instance's listener at the same moment, as PostgreSQL signals all listeners on commit). Writes
 * that wait at once share one marker: at most one is on its way, and the barriers called meanwhile
 * wait for the next, sent as soon as it is heard (a NOTIFY commits one at a time, a WAL flush each:
 * one marker per write made the writes queue behind one another's markers).
 */
export class GuideVersions {
  /** Least recently used first out (lru-cache: see memoizedRenderer for why not a `Map` kept in order). */
  private readonly known: LRUCache<number, Known>;
  /** Prerequisite id → remembered guides whose version covers it. */
  private readonly dependents = new Map<number, Set<number>>();
  /** Guide id → sequence number of its latest notification (bounded; `floor` covers what was dropped). */
  private readonly touched = new Map<number, number>();
  /** User id → sequence number of the latest announcement of a change to what user objects show. */
  private readonly touchedUsers = new Map<number, number>();
  /** Called with a user whose user objects changed (bodies that show them must go). */
  onUserChanged: (userId: number) => void = () => undefined;
  /** Called when announcements may have been missed (what relied on them must stop doing so). */
  onReset: () => void = () => undefined;
  private seq = 0;
  private floor = 0;
  private listening = false;
  private readonly waiting = new Map<string, () => void>();
  private readonly instance = randomUUID();
  private nextBarrier = 0;
  /** The marker on its way (sent, not yet heard), if any. */
  private markerOnItsWay: Promise<boolean> | null = null;
  /** The marker to send once the one on its way is heard: barriers called meanwhile wait for it. */
  private markerQueued: Promise<boolean> | null = null;
  /** Markers sent (each shared by the barriers that waited for it). */
  markersSent = 0;
  lookups = 0;

  constructor(
    private readonly source: GuideVersionSource,
    private readonly options: GuideVersionsOptions,
  ) {
    this.known = new LRUCache<number, Known>({ max: Math.max(1, options.maxEntries ?? 50_000), dispose: (known, guideId) => this.unlink(guideId, known) });
  }

  get coherence(): GuideCoherence {
    return this.options.coherence;
  }

  /** Whether remembered versions are being served (notify mode with a live listener). */
  get live(): boolean {
    return this.listening;
  }

  get remembered(): number {
    return this.known.size;
  }

  /** A mark to pass to `unchangedSince` after reading something from the database. */
  get sequence(): number {
    return this.seq;
  }

  /**
   * Whether nothing announced since `mark` touched these users (and the listener was live all
   * along): what was read about them after `mark` may be kept until their next announcement.
   */
  usersUnchangedSince(mark: number, userIds: readonly number[]): boolean {
    return this.listening && mark >= this.floor && userIds.every((id) => (this.touchedUsers.get(id) ?? 0) <= mark);
  }

  /** A notification on the user standings channel. */
  userNotified(payload: string): void {
    const userId = Number(payload);
    if (!Number.isSafeInteger(userId)) return;
    this.touchedUsers.set(userId, this.bump());
    this.onUserChanged(userId);
  }

  /**
   * A client has seen this revision of the guide (its `If-None-Match` names it, from any instance):
   * a remembered version older than that missed a notification still on its way, so it is
   * forgotten and the next read looks the version up. No read then answers an older body than one
   * the client has already seen elsewhere.
   */
  forgetOlderThan(guideId: number, revisionid: number): void {
    const version = this.known.get(guideId)?.version;
    if (version && parseInt(version, 10) < revisionid) this.forget(guideId);
  }

  /** The remembered version (`null`: not public), or `undefined` when it must be looked up. */
  peek(guideId: number): string | null | undefined {
    if (!this.listening) return undefined;
    return this.known.get(guideId)?.version;
  }

  /**
   * The version, remembered or read by `lookup`: one statement that reads what
   * `PUBLIC_GUIDE_VERSION_AND_BODY_SQL` reads (what else it read comes back as `row`; `undefined`
   * when the version was remembered and nothing was read).
   */
  async version<T extends GuideVersionRow>(guideId: number, lookup: () => Promise<T | null>): Promise<{ version: string | null; row?: T | null }> {
    const remembered = this.peek(guideId);
    if (remembered !== undefined) return { version: remembered };
    const started = this.seq;
    const wasListening = this.listening;
    this.lookups++;
    const row = await lookup();
    const known: Known = { version: row?.version ?? null, prerequisites: row?.prerequisites ?? [] };
    if (wasListening && this.listening && this.untouchedSince(started, guideId, known.prerequisites)) this.remember(guideId, known);
    return { version: known.version, row };
  }

  /** The listener is connected and listening: what was remembered may have missed notifications. */
  connected(): void {
    this.floor = ++this.seq;
    this.forgetAll();
    this.listening = this.options.coherence === 'notify';
  }

  /** The listener is gone: every read looks its version up until it is back. */
  disconnected(): void {
    this.listening = false;
    this.floor = ++this.seq;
    this.forgetAll();
  }

  /** A notification on the versions channel. */
  notified(payload: string): void {
    if (payload.startsWith(SYNC)) {
      this.waiting.get(payload)?.();
      return;
    }
    const guideId = Number(payload);
    if (!Number.isSafeInteger(guideId)) return;
    this.touched.set(guideId, this.bump());
    this.forget(guideId);
    for (const dependent of this.dependents.get(guideId) ?? []) this.forget(dependent);
  }

  /**
   * Resolves once every change committed before the call has been heard (notify mode with a live
   * listener), else at once. A listener that does not hear the marker in time is taken for lost:
   * reads fall back to lookups until a later marker arrives.
   */
  async barrier(): Promise<void> {
    if (!this.listening) return;
    if (!(await this.markerHeard())) this.suspend();
  }

  /** Checks now and then that the listener still hears markers; after a silence, resumes once one comes through. */
  async heartbeat(connected: boolean): Promise<void> {
    if (this.options.coherence !== 'notify' || !connected) return;
    if (this.listening) return this.barrier();
    if (await this.markerHeard()) {
      this.floor = ++this.seq;
      this.forgetAll();
      this.listening = true;
    }
  }

  /**
   * Resolves with whether a marker sent after this call was heard in time. A marker already on its
   * way may have been sent before a change its caller committed: the caller waits for the next one,
   * which the barriers called until it is sent share.
   */
  private markerHeard(): Promise<boolean> {
    if (this.markerQueued) return this.markerQueued;
    if (!this.markerOnItsWay) return this.sendMarker();
    const queued = this.markerOnItsWay.then(() => {
      this.markerQueued = null;
      return this.sendMarker();
    });
    this.markerQueued = queued;
    return queued;
  }

  private sendMarker(): Promise<boolean> {
    const sent = this.sendAndHear().finally(() => {
      if (this.markerOnItsWay === sent) this.markerOnItsWay = null;
    });
    this.markerOnItsWay = sent;
    return sent;
  }

  private async sendAndHear(): Promise<boolean> {
    this.markersSent++;
    const marker = `${SYNC}${this.instance}:${++this.nextBarrier}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.waiting.set(marker, () => resolve(true));
      timer = setTimeout(() => resolve(false), this.options.barrierTimeoutMs ?? 2000);
    });
    try {
      await this.source.notify(marker);
      return await heard;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(marker);
    }
  }

  private bump(): number {
    this.seq++;
    if (this.touched.size + this.touchedUsers.size > 10_000) {
      this.touched.clear();
      this.touchedUsers.clear();
      this.floor = this.seq;
    }
    return this.seq;
  }

  private suspend(): void {
    this.listening = false;
    this.floor = ++this.seq;
    this.forgetAll();
  }

  private untouchedSince(started: number, guideId: number, prerequisites: readonly number[]): boolean {
    if (started < this.floor) return false;
    if ((this.touched.get(guideId) ?? 0) > started) return false;
    return prerequisites.every((id) => (this.touched.get(id) ?? 0) <= started);
  }

  private remember(guideId: number, known: Known): void {
    this.forget(guideId);
    // May drop the least recently used entry (its links go with it: see the constructor).
    this.known.set(guideId, known);
    for (const id of known.prerequisites) {
      let set = this.dependents.get(id);
      if (!set) this.dependents.set(id, (set = new Set()));
      set.add(guideId);
    }
  }

  private forget(guideId: number): void {
    this.known.delete(guideId);
  }

  /** Drops the links of a remembered guide that is forgotten. */
  private unlink(guideId: number, known: Known): void {
    for (const id of known.prerequisites) {
      const set = this.dependents.get(id);
      set?.delete(guideId);
      if (set?.size === 0) this.dependents.delete(id);
    }
  }

  private forgetAll(): void {
    this.dependents.clear();
    this.known.clear();
    this.onReset();
  }
}
