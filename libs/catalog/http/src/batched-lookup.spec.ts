import { BatchedLookup } from './batched-lookup.js';

describe('BatchedLookup', () => {
  const squares = () => {
    const asked: number[][] = [];
    const lookup = new BatchedLookup<number>(async (ids) => (asked.push([...ids].sort((a, b) => a - b)), new Map(ids.filter((id) => id > 0).map((id) => [id, id * id]))));
    return { lookup, asked };
  };

  it('answers the calls of one turn with one lookup of all their ids', async () => {
    const { lookup, asked } = squares();
    const [a, b] = await Promise.all([lookup.of([1, 2]), lookup.of([2, 3, -1])]);
    expect(asked).toEqual([[-1, 1, 2, 3]]);
    expect([a.get(1), a.get(2), b.get(3), b.has(-1)]).toEqual([1, 4, 9, false]);
    expect([lookup.lookups, lookup.calls]).toEqual([1, 2]);
  });

  it('looks up again for a later call (nothing is kept), and not at all for no id', async () => {
    const { lookup, asked } = squares();
    await lookup.of([2]);
    expect((await lookup.of([])).size).toBe(0);
    expect((await lookup.of([2])).get(2)).toBe(4);
    expect(asked).toEqual([[2], [2]]);
  });

  it('fails every call of a failed lookup, and the next one looks up afresh', async () => {
    let fail = true;
    const lookup = new BatchedLookup<number>(async (ids) => {
      if (fail) throw new Error('down');
      return new Map(ids.map((id) => [id, id]));
    });
    const results = await Promise.allSettled([lookup.of([1]), lookup.of([2])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect((await lookup.of([1])).get(1)).toBe(1);
  });

  it('shares a lookup only between calls of the same route (the server their statements go to)', async () => {
    let route = 'primary';
    const lookup = new BatchedLookup<number>(
      async (ids) => new Map(ids.map((id) => [id, id])),
      () => route,
    );
    const onPrimary = lookup.of([1]);
    route = 'replica 0';
    const onReplica = lookup.of([2]);
    route = 'primary';
    const again = lookup.of([3]);
    await Promise.all([onPrimary, onReplica, again]);
    expect((await onPrimary).has(3)).toBe(true);
    expect((await onReplica).has(1)).toBe(false);
    expect(lookup.lookups).toBe(2);
  });
});
