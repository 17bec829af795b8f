/**
 * Lookups by id asked for in the same turn of the event loop, made as one (a DataLoader without a
 * cache): the page builds in flight at once share one set of queries for their users, or images,
 * instead of one each. Nothing is kept: a caller joins a lookup that has not started yet, so what
 * it gets was read after it asked (after the content stamp and the page it builds were read).
 */
export class BatchedLookup<V> {
  private queued: { readonly ids: Set<number>; readonly done: Promise<ReadonlyMap<number, V>> } | null = null;
  /** Lookups made, and the calls they answered (for tests and figures). */
  lookups = 0;
  calls = 0;

  /** `lookup`: the values of the ids among these that have one (one lookup whatever their number). */
  constructor(private readonly lookup: (ids: number[]) => Promise<ReadonlyMap<number, V>>) {}

  /** The values of these ids (a map holding at least theirs); none asked: no lookup. */
  of(ids: readonly number[]): Promise<ReadonlyMap<number, V>> {
    if (!ids.length) return Promise.resolve(new Map());
    this.calls++;
    if (!this.queued) {
      const batch = new Set<number>();
      // Started once the current turn is done, so the callers of this turn join it.
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.queued = null;
        this.lookups++;
        return this.lookup([...batch]);
      });
      this.queued = { ids: batch, done };
    }
    for (const id of ids) this.queued.ids.add(id);
    return this.queued.done;
  }
}
