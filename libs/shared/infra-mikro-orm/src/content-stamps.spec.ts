import { SharedRead } from './content-stamps.js';

/** A read whose answers the test gives, one per read started, in order. */
function controlledReads() {
  const started: { resolve: (value: number) => void; reject: (error: unknown) => void }[] = [];
  const read = new SharedRead<number>(() => new Promise<number>((resolve, reject) => started.push({ resolve, reject })));
  return { read, started };
}

describe('SharedRead', () => {
  it('gives a caller that asks while a read is under way the next read, never the one under way', async () => {
    const { read, started } = controlledReads();
    const first = read.current();
    const second = read.current();
    const third = read.current();
    expect(started).toHaveLength(1);
    started[0]!.resolve(1);
    expect(await first).toBe(1);
    // The next read started when the first ended, for both callers that asked meanwhile.
    expect(started).toHaveLength(2);
    const fourth = read.current();
    started[1]!.resolve(2);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    // Asked while the second read was under way: the third read.
    expect(started).toHaveLength(3);
    started[2]!.resolve(3);
    expect(await fourth).toBe(3);
    expect(read.reads).toBe(3);
  });

  it('starts a read at once when none is under way', async () => {
    const { read, started } = controlledReads();
    const first = read.current();
    started[0]!.resolve(1);
    await first;
    const later = read.current();
    expect(started).toHaveLength(2);
    started[1]!.resolve(5);
    expect(await later).toBe(5);
  });

  it('fails the callers of a read that fails, and reads again for the next', async () => {
    const { read, started } = controlledReads();
    const first = read.current();
    const waiting = read.current();
    started[0]!.reject(new Error('down'));
    await expect(first).rejects.toThrow('down');
    started[1]!.reject(new Error('still down'));
    await expect(waiting).rejects.toThrow('still down');
    const next = read.current();
    started[2]!.resolve(7);
    expect(await next).toBe(7);
  });

  it('fails the callers when the read throws before it returns a promise', async () => {
    const read = new SharedRead<number>(() => {
      throw new Error('no connection');
    });
    await expect(read.current()).rejects.toThrow('no connection');
  });
});
