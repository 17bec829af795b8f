import { cacheBudgets, cacheBudgetTotal } from './cache-budget.js';

describe('cacheBudgets', () => {
  it('shares the whole among the caches: half for guide bodies, an eighth for each kind of page', () => {
    expect(cacheBudgets(64)).toEqual({ guideCacheMb: 32, pageCacheMb: 8 });
    expect(cacheBudgetTotal(cacheBudgets(64))).toBe(64);
  });

  it('never lets the caches together hold more than the total, whatever the total', () => {
    for (let total = 0; total <= 4096; total += total < 64 ? 1 : 37) {
      const budgets = cacheBudgets(total);
      expect(cacheBudgetTotal(budgets)).toBeLessThanOrEqual(total);
      expect(Number.isInteger(budgets.guideCacheMb) && Number.isInteger(budgets.pageCacheMb)).toBe(true);
    }
  });

  it('takes a budget set on its own in place of its share', () => {
    expect(cacheBudgets(64, (name, mb) => (name === 'PAGE_CACHE_MB' ? 2 : mb))).toEqual({ guideCacheMb: 32, pageCacheMb: 2 });
  });

  it('keeps nothing with a zero budget', () => {
    expect(cacheBudgets(0)).toEqual({ guideCacheMb: 0, pageCacheMb: 0 });
  });
});
