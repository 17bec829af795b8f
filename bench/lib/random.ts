/** Seeded pseudo-random numbers (sfc32): the same seed gives the same data set on any machine. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    // Spread the seed and the stream number over the state (splitmix32), then warm up.
    let s = (Math.imul(seed >>> 0, 0x9e3779b9) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** An item drawn with the given weights (same length as the items). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((sum, w) => sum + w, 0);
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  }

  /** Fisher-Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

/**
 * Ranks 0..n-1 drawn with probability proportional to 1 / (rank + 1)^s (Zipf; s = 1 by default):
 * the cumulative weights are computed once, each draw is a binary search.
 */
export class Zipf {
  private readonly cdf: Float64Array;

  constructor(
    readonly n: number,
    s = 1,
  ) {
    if (n < 1) throw new Error('Zipf needs at least one item');
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let k = 0; k < n; k++) {
      sum += 1 / Math.pow(k + 1, s);
      this.cdf[k] = sum;
    }
    for (let k = 0; k < n; k++) this.cdf[k]! /= sum;
  }

  /** A rank, 0 being the most frequent. */
  rank(random: Random | (() => number)): number {
    const u = typeof random === 'function' ? random() : random.next();
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The share of all draws that fall on the first `k` ranks. */
  mass(k: number): number {
    return k <= 0 ? 0 : this.cdf[Math.min(k, this.n) - 1]!;
  }
}
