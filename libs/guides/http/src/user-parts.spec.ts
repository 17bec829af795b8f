import { unknownUserSummary } from '@rc/identity-contracts';
import { UserPartsCache, type UserAnnouncements, type UserPart } from './user-parts.js';

/** Announcements as GuideVersions makes them: a sequence, users touched at a number, a live flag. */
class FakeAnnouncements implements UserAnnouncements {
  sequence = 0;
  live = true;
  readonly touched = new Map<number, number>();
  announce(userId: number): void {
    this.touched.set(userId, ++this.sequence);
  }
  usersUnchangedSince(mark: number, userIds: readonly number[]): boolean {
    return this.live && userIds.every((id) => (this.touched.get(id) ?? 0) <= mark);
  }
}

describe('UserPartsCache', () => {
  let names: Map<number, string>;
  let calls: number[][];
  let announcements: FakeAnnouncements;
  /** Runs before the fetch answers (a change committed while it reads). */
  let during: () => void;
  const fetch = async (ids: number[]) => {
    calls.push([...ids].sort((a, b) => a - b));
    await Promise.resolve();
    during();
    return new Map<number, UserPart>(ids.map((id) => [id, { summary: { ...unknownUserSummary(id, 'https://x.example'), username: names.get(id) ?? '?' }, username: names.get(id) ?? '?' }]));
  };

  beforeEach(() => {
    names = new Map([[1, 'Ada'], [2, 'Lin'], [3, 'Bo']]);
    calls = [];
    announcements = new FakeAnnouncements();
    during = () => undefined;
  });

  it('looks up the users of concurrent bodies in one batch, and keeps them', async () => {
    const cache = new UserPartsCache(fetch, announcements);
    const [a, b] = await Promise.all([cache.parts([1, 2]), cache.parts([2, 3])]);
    expect(calls).toEqual([[1, 2, 3]]);
    expect([a.username(1), a.summary(2).username, b.username(3)]).toEqual(['Ada', 'Lin', 'Bo']);
    const again = await cache.parts([3, 1]);
    expect(calls).toHaveLength(1);
    expect(again.username(1)).toBe('Ada');
    expect(() => again.username(2)).toThrow(/not looked up/);
  });

  it('looks a user up again after an announced change', async () => {
    const cache = new UserPartsCache(fetch, announcements);
    await cache.parts([1]);
    names.set(1, 'Ada Renamed');
    announcements.announce(1);
    cache.forget(1);
    expect((await cache.parts([1])).username(1)).toBe('Ada Renamed');
    expect(calls).toEqual([[1], [1]]);
  });

  it('does not keep what a change announced while it was read may have made stale', async () => {
    const cache = new UserPartsCache(fetch, announcements);
    during = () => announcements.announce(1);
    await cache.parts([1, 2]);
    during = () => undefined;
    await cache.parts([1, 2]);
    expect(calls).toEqual([[1, 2], [1]]);
  });

  it('keeps nothing without a live listener, and forgets everything on clear', async () => {
    const cache = new UserPartsCache(fetch, announcements);
    await cache.parts([1]);
    cache.clear();
    announcements.live = false;
    await cache.parts([1]);
    await cache.parts([1]);
    expect(calls).toEqual([[1], [1], [1]]);
    expect(cache.size).toBe(0);
  });

  it('holds at most its bound, least recently used out first', async () => {
    const cache = new UserPartsCache(fetch, announcements, 2);
    await cache.parts([1]);
    await cache.parts([2]);
    await cache.parts([1]); // 1 is now the most recently used
    await cache.parts([3]);
    expect(cache.size).toBe(2);
    calls = [];
    await cache.parts([1, 3]);
    expect(calls).toEqual([]);
    await cache.parts([2]);
    expect(calls).toEqual([[2]]);
  });
});
