import { cacheBudgets, cacheBudgetTotal } from './cache-budget.js';

describe('cacheBudgets', () => {
  it('shares the whole among the caches: a fifth for guide bodies, a quarter for each kind of page', () => {
    expect(cacheBudgets(80)).toEqual({ guideCacheMb: 16, pageCacheMb: 20 });
    expect(cacheBudgetTotal(cacheBudgets(80))).toBe(80);
    expect(cacheBudgets(64)).toEqual({ guideCacheMb: 12, pageCacheMb: 16 });
  });

  it('never lets the caches together hold more than the total, whatever the total', () => {
    for (let total = 0; total <= 4096; total += total < 64 ? 1 : 37) {
      const budgets = cacheBudgets(total);
      expect(cacheBudgetTotal(budgets)).toBeLessThanOrEqual(total);
      expect(Number.isInteger(budgets.guideCacheMb) && Number.isInteger(budgets.pageCacheMb)).toBe(true);
    }
  });

  it('takes a budget set on its own in place of its share', () => {
    expect(cacheBudgets(64, (name, mb) => (name === 'PAGE_CACHE_MB' ? 2 : mb))).toEqual({ guideCacheMb: 12, pageCacheMb: 2 });
  });

  it('keeps nothing with a zero budget', () => {
    expect(cacheBudgets(0)).toEqual({ guideCacheMb: 0, pageCacheMb: 0 });
  });
});
