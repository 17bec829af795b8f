/**
 * Where counted views are kept: adds each id's count to its stored total in one write and answers
 * the totals stored after it (ids that name nothing are skipped).
 */
export abstract class ViewTally {
  abstract add(counts: ReadonlyMap<number, number>): Promise<ReadonlyMap<number, number>>;
}

/**
 * Counts views without a write per read: each read adds one to a count in memory, and `flush`
 * (called every few seconds and at shutdown) adds the counts gathered since the last flush to the
 * stored totals in one write. Several instances each count their own reads and flush them as
 * increments, so the stored totals hold every instance's views once each has flushed. A flush that
 * fails keeps its counts for the next one; flushes never overlap.
 */
export class ViewCounter {
  private pending = new Map<number, number>();
  /**
   * Totals as last stored (from this instance's flushes, or learned from a read), most recently
   * learnt last. Past `maxKnown`, the older half is dropped at once (see `remember`).
   */
  private totals = new Map<number, number>();
  private running: Promise<number> = Promise.resolve(0);
  /** Views written to the tally so far (by this instance). */
  flushed = 0;

  constructor(
    private readonly tally: ViewTally,
    /** How many totals are remembered at most (past it, the older half is forgotten). */
    private readonly maxKnown = 50_000,
  ) {}

  /** One view (or `n`) of `id`. */
  record(id: number, n = 1): void {
    if (!Number.isSafeInteger(id) || n <= 0) return;
    this.pending.set(id, (this.pending.get(id) ?? 0) + n);
  }

  /** Views counted and not yet flushed. */
  get unflushed(): number {
    let sum = 0;
    for (const n of this.pending.values()) sum += n;
    return sum;
  }

  /** The stored total last seen for `id` (by a flush or a read), if any. */
  known(id: number): number | undefined {
    return this.totals.get(id);
  }

  /** A stored total read elsewhere (a row read with its views): kept when newer than what is known. */
  learn(id: number, total: number): void {
    if ((this.totals.get(id) ?? -1) < total) this.remember(id, total);
  }

  /**
   * Writes the counts gathered so far; resolves with the number of views written. Called while a
   * flush runs, it waits for that one and then writes what was counted since.
   */
  flush(): Promise<number> {
    const next = this.running.catch(() => 0).then(() => this.flushOnce());
    this.running = next;
    return next;
  }

  private async flushOnce(): Promise<number> {
    if (!this.pending.size) return 0;
    const batch = this.pending;
    this.pending = new Map();
    let totals: ReadonlyMap<number, number>;
    try {
      totals = await this.tally.add(batch);
    } catch (error) {
      // Kept for the next flush, with what was counted meanwhile.
      for (const [id, n] of batch) this.record(id, n);
      throw error;
    }
    for (const [id, total] of totals) this.learn(id, total);
    let written = 0;
    for (const n of batch.values()) written += n;
    this.flushed += written;
    return written;
  }

  private remember(id: number, total: number): void {
    this.totals.delete(id);
    this.totals.set(id, total);
    // Dropping the oldest key one at a time would cost V8 a scan of the deleted slots at the front
    // of the Map on every call; rebuilding it with the newer half costs once per maxKnown / 2 totals.
    if (this.totals.size > this.maxKnown) this.totals = new Map([...this.totals].slice(-Math.max(1, Math.floor(this.maxKnown / 2))));
  }
}
