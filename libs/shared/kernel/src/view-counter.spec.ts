import { InMemoryViewTally } from './testing/in-memory-view-tally.js';
import { ViewCounter } from './view-counter.js';

describe('ViewCounter', () => {
  it('writes nothing per view: one write per flush adds every id its count', async () => {
    const tally = new InMemoryViewTally();
    const counter = new ViewCounter(tally);
    for (let i = 0; i < 5; i++) counter.record(1);
    counter.record(2);
    expect(tally.writes).toBe(0);
    expect(counter.unflushed).toBe(6);
    expect(await counter.flush()).toBe(6);
    expect(tally.writes).toBe(1);
    expect([...tally.totals]).toEqual([[1, 5], [2, 1]]);
    expect(counter.unflushed).toBe(0);
    expect(counter.flushed).toBe(6);
  });

  it('does not write when nothing was counted', async () => {
    const tally = new InMemoryViewTally();
    const counter = new ViewCounter(tally);
    expect(await counter.flush()).toBe(0);
    expect(tally.writes).toBe(0);
  });

  it('learns the stored totals from its flushes, which include the other instances\' views', async () => {
    const tally = new InMemoryViewTally();
    const here = new ViewCounter(tally);
    const there = new ViewCounter(tally);
    here.record(7, 2);
    there.record(7, 3);
    await there.flush();
    expect(here.known(7)).toBeUndefined();
    await here.flush();
    expect(here.known(7)).toBe(5);
    expect(tally.totals.get(7)).toBe(5);
  });

  it('keeps the counts of a failed flush for the next one', async () => {
    const tally = new InMemoryViewTally();
    const counter = new ViewCounter(tally);
    counter.record(3, 4);
    tally.failNext = new Error('database away');
    await expect(counter.flush()).rejects.toThrow('database away');
    counter.record(3);
    expect(counter.unflushed).toBe(5);
    expect(await counter.flush()).toBe(5);
    expect(tally.totals.get(3)).toBe(5);
  });

  it('runs flushes one after another: views counted while one writes go to the next', async () => {
    let inFlight = 0;
    let overlapped = false;
    const totals = new Map<number, number>();
    const slow = {
      async add(counts: ReadonlyMap<number, number>) {
        overlapped ||= inFlight > 0;
        inFlight++;
        await new Promise((resolve) => setImmediate(resolve));
        for (const [id, n] of counts) totals.set(id, (totals.get(id) ?? 0) + n);
        inFlight--;
        return new Map(totals);
      },
    };
    const counter = new ViewCounter(slow);
    counter.record(1);
    const first = counter.flush();
    await new Promise((resolve) => setImmediate(resolve));
    counter.record(1, 2);
    const second = counter.flush();
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    expect(overlapped).toBe(false);
    expect(totals.get(1)).toBe(3);
  });

  it('skips ids the tally does not know and ignores nonsense counts', async () => {
    const tally = new InMemoryViewTally(new Set([1]));
    const counter = new ViewCounter(tally);
    counter.record(1);
    counter.record(99);
    counter.record(1, 0);
    counter.record(Number.NaN);
    await counter.flush();
    expect([...tally.totals]).toEqual([[1, 1]]);
    expect(counter.known(99)).toBeUndefined();
  });

  it('keeps a learned total only when it is newer, and remembers a bounded number of totals', () => {
    const counter = new ViewCounter(new InMemoryViewTally(), 2);
    counter.learn(1, 10);
    counter.learn(1, 4);
    expect(counter.known(1)).toBe(10);
    counter.learn(2, 1);
    counter.learn(3, 1);
    expect(counter.known(1)).toBeUndefined();
    expect(counter.known(3)).toBe(1);
  });
});

describe('ViewCounter memory', () => {
  it('remembers at most maxKnown totals, keeping the most recently learnt', () => {
    const counter = new ViewCounter(new InMemoryViewTally(), 10);
    for (let id = 1; id <= 25; id++) counter.learn(id, id * 2);
    expect(counter.known(25)).toBe(50);
    expect(counter.known(21)).toBe(42);
    expect(counter.known(1)).toBeUndefined();
    const kept = Array.from({ length: 25 }, (_, i) => counter.known(i + 1)).filter((v) => v !== undefined);
    expect(kept.length).toBeLessThanOrEqual(10);
  });
});
