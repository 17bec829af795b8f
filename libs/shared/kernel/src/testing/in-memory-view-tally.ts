import { ViewTally } from '../view-counter.js';

/** Stored view totals in memory; ids outside `known` (when given) name nothing and are skipped. */
export class InMemoryViewTally extends ViewTally {
  readonly totals = new Map<number, number>();
  /** Writes made (one per flush that had something to write). */
  writes = 0;
  /** When set, the next write fails with it (once). */
  failNext: Error | null = null;

  constructor(private readonly known: ReadonlySet<number> | null = null) {
    super();
  }

  async add(counts: ReadonlyMap<number, number>): Promise<ReadonlyMap<number, number>> {
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = null;
      throw error;
    }
    this.writes++;
    const out = new Map<number, number>();
    for (const [id, n] of counts) {
      if (this.known && !this.known.has(id)) continue;
      const total = (this.totals.get(id) ?? 0) + n;
      this.totals.set(id, total);
      out.set(id, total);
    }
    return out;
  }
}
