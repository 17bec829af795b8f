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

  it('answers the kept bytes with their hash, so the ETag is not computed again', () => {
    const answer = answerOf(new StampedBodies(1024).put('k', '1', { b: 2 }, null));
    expect(answer).toBeInstanceOf(SerializedJson);
    expect(answer.json).toBe('{"b":2}');
    expect(answer.hash).toBe(hashOf('{"b":2}'));
  });
});
