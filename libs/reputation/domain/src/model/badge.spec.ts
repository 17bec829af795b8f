import { TEST_BADGES } from '../testing/badge-fixtures.js';
import { dueAwards, type UserMetrics } from './badge.js';

const none: UserMetrics = { guides_published: 0, teardowns_published: 0, guides_completed: 0, reputation: 0 };

describe('dueAwards', () => {
  it('grants nothing to a user with nothing', () => {
    expect(dueAwards(TEST_BADGES, none)).toEqual([]);
  });

  it('grants per-user rules at their threshold, not below', () => {
    expect(dueAwards(TEST_BADGES, { ...none, guides_published: 2 }).map((d) => d.badge.id)).toEqual([1]);
    expect(dueAwards(TEST_BADGES, { ...none, guides_published: 3 }).map((d) => d.badge.id)).toEqual([1, 2]);
    expect(dueAwards(TEST_BADGES, { ...none, reputation: 59 })).toEqual([]);
    expect(dueAwards(TEST_BADGES, { ...none, reputation: 60 }).map((d) => d.badge.id)).toEqual([7]);
  });

  it('names the guide as the occasion of a multiple per-guide badge, and needs a guide for per-guide rules', () => {
    expect(dueAwards(TEST_BADGES, { ...none, guide: { id: 9, guide_completions: 2, guide_favorites: 0 } }).map((d) => [d.badge.id, d.occasion])).toEqual([[5, 'guide:9']]);
    expect(dueAwards(TEST_BADGES, { ...none, guide: { id: 9, guide_completions: 0, guide_favorites: 1 } }).map((d) => [d.badge.id, d.occasion])).toEqual([[6, '']]);
  });

  it('never grants a badge without a rule', () => {
    const all: UserMetrics = { guides_published: 99, teardowns_published: 99, guides_completed: 99, reputation: 99_999, guide: { id: 1, guide_completions: 99, guide_favorites: 99 } };
    expect(dueAwards(TEST_BADGES, all).map((d) => d.badge.id)).not.toContain(8);
  });
});
