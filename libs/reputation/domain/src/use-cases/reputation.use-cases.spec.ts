import type { GuideEvent } from '@rc/guides-contracts';
import type { Clock } from '@rc/shared-kernel';
import { RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { POINTS } from '../model/point-table.js';
import { InvalidBadgeCategoryError } from '../reputation.errors.js';
import { InMemoryBadgeCatalogue, InMemoryReputation, InMemoryReputationQueries, TEST_BADGES } from '../testing/index.js';
import { GetUserBadges, HandleGuideEvent } from './reputation.use-cases.js';

const clock: Clock = { now: () => new Date('2026-01-01T00:00:00Z') };
const ALICE = 1;
const BOB = 2;
const CAROL = 3;
let at = 1_700_000_000;

const published = (guideId: number, authorId = ALICE, guideType = 'replacement'): GuideEvent => ({ type: 'GuidePublished', guideId, authorId, guideType, at: at++ });
const unpublished = (guideId: number, authorId = ALICE): GuideEvent => ({ type: 'GuideUnpublished', guideId, authorId, at: at++ });
const completed = (guideId: number, userId: number, authorId = ALICE): GuideEvent => ({ type: 'GuideCompleted', guideId, authorId, userId, at: at++ });
const uncompleted = (guideId: number, userId: number, authorId = ALICE): GuideEvent => ({ type: 'GuideUncompleted', guideId, authorId, userId, at: at++ });
const favorited = (guideId: number, userId: number, authorId = ALICE): GuideEvent => ({ type: 'GuideFavorited', guideId, authorId, userId, at: at++ });
const unfavorited = (guideId: number, userId: number, authorId = ALICE): GuideEvent => ({ type: 'GuideUnfavorited', guideId, authorId, userId, at: at++ });

describe('HandleGuideEvent', () => {
  let store: InMemoryReputation;
  let handle: HandleGuideEvent;
  let events: RecordingIntegrationEvents;
  let nextId: number;
  const deliver = (...events: GuideEvent[]) => Promise.all(events.map((e) => handle.execute(String(nextId++), e)));

  beforeEach(() => {
    store = new InMemoryReputation();
    events = new RecordingIntegrationEvents();
    handle = new HandleGuideEvent(store, new InMemoryBadgeCatalogue(TEST_BADGES), clock, events);
    nextId = 1;
  });

  it('tells the outside world (webhooks) of each badge awarded, once, about its holder', async () => {
    await deliver(published(10));
    await handle.execute('1', published(10)); // a replayed event awards nothing
    expect(events.published).toEqual([
      { type: 'badge.awarded', resource: `user:${ALICE}`, data: { userid: ALICE, badgeid: 1, name: expect.any(String), guideid: 10 }, at: expect.any(Date) },
    ]);
  });

  it('gives the author the publishing points and the first-guide badge with its points', async () => {
    await deliver(published(10));
    expect(store.ledger.map((e) => [e.cause, e.points])).toEqual([
      ['guide_published', POINTS.guidePublished],
      ['badge', POINTS.badge.bronze],
    ]);
    expect(store.total(ALICE)).toBe(POINTS.guidePublished + POINTS.badge.bronze);
    expect(store.badgesOf(ALICE)).toEqual([1]);
  });

  it('awards the teardown badge only for teardowns', async () => {
    await deliver(published(10));
    expect(store.badgesOf(ALICE)).not.toContain(3);
    await deliver(published(11, ALICE, 'teardown'));
    expect(store.badgesOf(ALICE)).toContain(3);
  });

  it('takes the publishing points back on unpublish, and gives them again on a new publish, never twice in a row', async () => {
    await deliver(published(10));
    const afterPublish = store.total(ALICE);
    await deliver(unpublished(10));
    expect(store.total(ALICE)).toBe(afterPublish - POINTS.guidePublished);
    await deliver(unpublished(10));
    expect(store.total(ALICE)).toBe(afterPublish - POINTS.guidePublished);
    await deliver(published(10), published(10));
    expect(store.total(ALICE)).toBe(afterPublish);
    expect(store.badgesOf(ALICE)).toEqual([1]);
  });

  it('pays the author for completions by others, not by themself, and the completer earns the first-completion badge', async () => {
    await deliver(published(10));
    const base = store.total(ALICE);
    await deliver(completed(10, ALICE));
    expect(store.total(ALICE)).toBe(base + POINTS.badge.bronze); // Fixer, no completion points
    await deliver(completed(10, BOB));
    expect(store.total(ALICE)).toBe(base + POINTS.badge.bronze + POINTS.guideCompleted);
    expect(store.badgesOf(BOB)).toEqual([4]);
    expect(store.total(BOB)).toBe(POINTS.badge.bronze);
    await deliver(uncompleted(10, BOB));
    expect(store.total(ALICE)).toBe(base + POINTS.badge.bronze);
    expect(store.badgesOf(BOB)).toEqual([4]); // badges are kept
  });

  it('awards a multiple per-guide badge once per guide', async () => {
    await deliver(published(10), published(11));
    await deliver(completed(10, BOB), completed(10, CAROL));
    expect(store.awards.filter((a) => a.badgeId === 5).map((a) => a.occasion)).toEqual(['guide:10']);
    await deliver(uncompleted(10, CAROL), completed(10, CAROL));
    expect(store.awards.filter((a) => a.badgeId === 5)).toHaveLength(1);
    await deliver(completed(11, BOB), completed(11, CAROL));
    expect(store.awards.filter((a) => a.badgeId === 5).map((a) => a.occasion)).toEqual(['guide:10', 'guide:11']);
  });

  it('counts favourites by others only, and takes their points back', async () => {
    await deliver(published(10));
    const base = store.total(ALICE);
    await deliver(favorited(10, ALICE));
    expect(store.total(ALICE)).toBe(base);
    await deliver(favorited(10, BOB));
    expect(store.total(ALICE)).toBe(base + POINTS.guideFavorited + POINTS.badge.bronze);
    await deliver(unfavorited(10, BOB));
    expect(store.total(ALICE)).toBe(base + POINTS.badge.bronze);
  });

  it('evaluates reputation thresholds again after a badge lifts the total over one', async () => {
    // 3 guides: 60 publishing points + Author (5) + Prolific (15) → over 60: Established (gold).
    await deliver(published(10), published(11), published(12));
    expect(store.badgesOf(ALICE).sort()).toEqual([1, 2, 7]);
    expect(store.total(ALICE)).toBe(3 * POINTS.guidePublished + POINTS.badge.bronze + POINTS.badge.silver + POINTS.badge.gold);
  });

  it('skips a replayed event id entirely', async () => {
    const event = completed(10, BOB);
    await deliver(published(10));
    const first = await handle.execute('77', event);
    const replay = await handle.execute('77', event);
    expect(first.handled).toBe(true);
    expect(replay).toEqual({ handled: false, entries: 0, awards: 0 });
  });

  it('gives the same totals for a duplicated event under a new id (facts are idempotent)', async () => {
    await deliver(published(10), completed(10, BOB), completed(10, BOB), favorited(10, BOB), favorited(10, BOB));
    const once = new InMemoryReputation();
    const handleOnce = new HandleGuideEvent(once, new InMemoryBadgeCatalogue(TEST_BADGES), clock, new RecordingIntegrationEvents());
    let id = 1;
    for (const e of [published(10), completed(10, BOB), favorited(10, BOB)]) await handleOnce.execute(String(id++), e);
    expect(store.total(ALICE)).toBe(once.total(ALICE));
    expect(store.total(BOB)).toBe(once.total(BOB));
    expect(store.awards.length).toBe(once.awards.length);
  });

  it('keeps every total equal to the sum of its ledger entries', async () => {
    await deliver(published(10), completed(10, BOB), favorited(10, CAROL), unpublished(10), published(11, BOB, 'teardown'), completed(11, ALICE, BOB));
    const queries = new InMemoryReputationQueries(store, TEST_BADGES);
    expect(await queries.audit()).toEqual([]);
    const sum = (user: number) => store.ledger.filter((e) => e.userId === user).reduce((s, e) => s + e.points, 0);
    for (const user of [ALICE, BOB, CAROL]) expect(store.total(user)).toBe(sum(user));
  });
});

describe('GetUserBadges', () => {
  it('lists earned badges first (most recent first), then the rest by id, and filters by category', async () => {
    const store = new InMemoryReputation();
    const handle = new HandleGuideEvent(store, new InMemoryBadgeCatalogue(TEST_BADGES), clock, new RecordingIntegrationEvents());
    await handle.execute('1', { type: 'GuidePublished', guideId: 10, authorId: ALICE, guideType: 'replacement', at: 1_700_000_000 });
    await handle.execute('2', { type: 'GuideCompleted', guideId: 10, authorId: BOB, userId: ALICE, at: 1_700_000_100 });
    const badges = new GetUserBadges(new InMemoryReputationQueries(store, TEST_BADGES));
    const list = await badges.execute({ userId: ALICE });
    expect(list.map((e) => [e.badge.id, e.earned])).toEqual([
      [4, true],
      [1, true],
      [2, false],
      [3, false],
      [5, false],
      [6, false],
      [7, false],
      [8, false],
    ]);
    expect(list[0]!.timesEarned).toBe(1);
    expect((await badges.execute({ userId: ALICE, category: 'badgeGeneral' })).map((e) => e.badge.id)).toEqual([4, 7]);
    await expect(badges.execute({ userId: ALICE, category: 'badgeNope' })).rejects.toBeInstanceOf(InvalidBadgeCategoryError);
  });
});
