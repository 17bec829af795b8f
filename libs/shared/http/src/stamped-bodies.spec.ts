import { hashOf } from './conditional.js';
import { SerializedJson } from './respond.js';
import { answerOf, StampedBodies } from './stamped-bodies.js';

describe('StampedBodies', () => {
  it('serves a body only for the stamp it was built after', () => {
    const bodies = new StampedBodies(1024 * 1024);
    const kept = bodies.put('/guides', '7', [{ a: 1 }], null);
    expect(kept.json).toBe('[{"a":1}]');
    expect(kept.hash).toBe(hashOf('[{"a":1}]'));
    expect(bodies.get('/guides', '7')).toBe(kept);
    expect(bodies.get('/guides', '8')).toBeNull();
    expect(bodies.get('/other', '7')).toBeNull();
    expect([bodies.hits, bodies.misses]).toEqual([1, 2]);
  });

  it('serves a body at most maxAgeMs after it was built', () => {
    let now = 0;
    const bodies = new StampedBodies(1024 * 1024, 1000, () => now);
    bodies.put('/search/x', '1', { results: [] }, null);
    now = 999;
    expect(bodies.get('/search/x', '1')).not.toBeNull();
    now = 1000;
    expect(bodies.get('/search/x', '1')).toBeNull();
  });

  it('serves a body read after its stamp as long as the stamp reads the same, and one from older data at most maxAgeMs after that data', () => {
    let now = 10_000;
    const bodies = new StampedBodies(1024 * 1024, 1000, () => now);
    bodies.put('/search/exact', '1', { results: [] }, null, null);
    bodies.put('/search/kept', '1', { results: [] }, null, 9_500);
    now = 10_499;
    expect(bodies.get('/search/kept', '1')).not.toBeNull();
    now = 10_500;
    expect(bodies.get('/search/kept', '1')).toBeNull();
    now = 1_000_000;
    expect(bodies.get('/search/exact', '1')).not.toBeNull();
    expect(bodies.get('/search/exact', '2')).toBeNull();
  });

  it('keeps the most recently used within its byte budget, and nothing with a budget of 0', () => {
    const bodies = new StampedBodies(2 * 2 * 60);
    bodies.put('a', '1', 'x'.repeat(40), null);
    bodies.put('b', '1', 'y'.repeat(40), null);
    expect(bodies.get('a', '1')).not.toBeNull();
    bodies.put('c', '1', 'z'.repeat(40), null);
    expect(bodies.get('b', '1')).toBeNull();
    expect(bodies.get('a', '1')).not.toBeNull();
    const none = new StampedBodies(0);
    expect(none.enabled).toBe(false);
    none.put('a', '1', [], null);
    expect(none.get('a', '1')).toBeNull();
  });

  it('keeps a body already serialized as its bytes, with their hash when known', () => {
    const bodies = new StampedBodies(1024);
    const bytes = Buffer.from('{"c":"é"}');
    expect(bodies.put('a', '1', new SerializedJson(bytes), null)).toMatchObject({ json: bytes, hash: hashOf('{"c":"é"}') });
    expect(bodies.put('b', '1', new SerializedJson('[1]', null, 'known'), null)).toMatchObject({ json: '[1]', hash: 'known' });
  });

  it('answers the kept bytes with their hash, so the ETag is not computed again', () => {
    const answer = answerOf(new StampedBodies(1024).put('k', '1', { b: 2 }, null));
    expect(answer).toBeInstanceOf(SerializedJson);
    expect(answer.json).toBe('{"b":2}');
    expect(answer.hash).toBe(hashOf('{"b":2}'));
  });
});

describe('StampedBodies.build', () => {
  it('runs one build for concurrent misses of the same key and stamp, and keeps its body', async () => {
    const bodies = new StampedBodies(1024 * 1024);
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const make = async () => {
      runs++;
      await gate;
      return { body: { n: runs }, extra: null };
    };
    const waiting = Array.from({ length: 8 }, () => bodies.build('/search/x', '1', make));
    release();
    const built = await Promise.all(waiting);
    expect(runs).toBe(1);
    expect(bodies.shared).toBe(7);
    expect(new Set(built).size).toBe(1);
    expect(built[0]!.json).toBe('{"n":1}');
    expect(bodies.get('/search/x', '1')).toBe(built[0]);
  });

  it('builds again for another stamp or key, and after a build is done', async () => {
    const bodies = new StampedBodies(1024 * 1024);
    let runs = 0;
    const make = async () => ({ body: ++runs, extra: null });
    await Promise.all([bodies.build('/a', '1', make), bodies.build('/a', '2', make), bodies.build('/b', '1', make)]);
    expect(runs).toBe(3);
    await bodies.build('/a', '1', make);
    expect(runs).toBe(4);
  });

  it('shares a failure with the requests waiting on it, and tries again on the next miss', async () => {
    const bodies = new StampedBodies(1024 * 1024);
    let runs = 0;
    const failing = async (): Promise<{ body: unknown; extra: null }> => {
      runs++;
      await Promise.resolve();
      throw new Error('no');
    };
    const results = await Promise.allSettled([bodies.build('/a', '1', failing), bodies.build('/a', '1', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(runs).toBe(1);
    await expect(bodies.build('/a', '1', failing)).rejects.toThrow('no');
    expect(runs).toBe(2);
    expect(bodies.get('/a', '1')).toBeNull();
  });
});
