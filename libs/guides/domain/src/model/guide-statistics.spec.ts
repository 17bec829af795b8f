import { contributorShares, withRevision } from './guide-statistics.js';

describe('contributorShares', () => {
  it('puts the creator first whatever their count, then by revisions, then by first revision', () => {
    const shares = contributorShares([
      { userId: 2, revisions: 5, firstRevisionid: 20 },
      { userId: 3, revisions: 2, firstRevisionid: 15 },
      { userId: 1, revisions: 1, firstRevisionid: 10 },
      { userId: 4, revisions: 2, firstRevisionid: 12 },
    ]);
    expect(shares.map((s) => s.userId)).toEqual([1, 2, 4, 3]);
  });

  it('gives each their share of all revisions in whole percents', () => {
    const shares = contributorShares([
      { userId: 1, revisions: 1, firstRevisionid: 1 },
      { userId: 2, revisions: 2, firstRevisionid: 2 },
    ]);
    expect(shares).toEqual([
      { userId: 1, percent: 33 },
      { userId: 2, percent: 67 },
    ]);
    expect(contributorShares([{ userId: 9, revisions: 4, firstRevisionid: 3 }])).toEqual([{ userId: 9, percent: 100 }]);
    expect(contributorShares([])).toEqual([]);
  });
});

describe('withRevision', () => {
  it('counts one more revision for a known editor and adds a new one with this revision as their first', () => {
    const before = [{ userId: 1, revisions: 1, firstRevisionid: 5 }];
    expect(withRevision(before, 1, 9)).toEqual([{ userId: 1, revisions: 2, firstRevisionid: 5 }]);
    expect(withRevision(before, 2, 9)).toEqual([before[0], { userId: 2, revisions: 1, firstRevisionid: 9 }]);
    expect(before).toEqual([{ userId: 1, revisions: 1, firstRevisionid: 5 }]);
  });
});
