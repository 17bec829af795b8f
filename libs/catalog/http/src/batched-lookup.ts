/**
 * Lookups by id asked for in the same turn of the event loop, made as one (a DataLoader without a
 * cache): the page builds in flight at once share one set of queries for their users, or images,
 * instead of one each. Nothing is kept: a caller joins a lookup that has not started yet, so what
 * it gets was read after it asked (after the content stamp and the page it builds were read).
 *
 * The lookup runs in the context of the call that started it, so only calls whose statements go to
 * the same server may share it: `routeOf` names that server for the current call (with read
 * replicas, the request's replica or the primary), and each route has a batch of its own. A
 * replica only moves forward, so a joined lookup reads no older than the caller's own reads did.
 * Callers are outside transactions (a lookup never runs in another caller's transaction).
 */
export class BatchedLookup<V> {
  private readonly queued = new Map<unknown, { readonly ids: Set<number>; readonly done: Promise<ReadonlyMap<number, V>> }>();
  /** Lookups made, and the calls they answered (for tests and figures). */
  lookups = 0;
  calls = 0;

  /** `lookup`: the values of the ids among these that have one (one lookup whatever their number). */
  constructor(
    private readonly lookup: (ids: number[]) => Promise<ReadonlyMap<number, V>>,
    private readonly routeOf: () => unknown = () => null,
  ) {}

  /** The values of these ids (a map holding at least theirs); none asked: no lookup. */
  of(ids: readonly number[]): Promise<ReadonlyMap<number, V>> {
    if (!ids.length) return Promise.resolve(new Map());
    this.calls++;
    const route = this.routeOf();
    let queued = this.queued.get(route);
    if (!queued) {
      const batch = new Set<number>();
      // Started once the current turn is done, so the callers of this turn join it.
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.queued.delete(route);
        this.lookups++;
        return this.lookup([...batch]);
      });
      queued = { ids: batch, done };
      this.queued.set(route, queued);
    }
    for (const id of ids) queued.ids.add(id);
    return queued.done;
  }
}
