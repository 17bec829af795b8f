import { cacheBudgets, cacheBudgetTotal } from './cache-budget.js';

describe('cacheBudgets', () => {
  it('shares the whole among the caches: a fifth for guide bodies, a quarter for each kind of page, an eighth for each kind of list', () => {
    expect(cacheBudgets(80)).toEqual({ guideCacheMb: 16, pageCacheMb: 20, listCacheMb: 10 });
    expect(cacheBudgetTotal(cacheBudgets(80))).toBe(80);
    expect(cacheBudgets(64)).toEqual({ guideCacheMb: 12, pageCacheMb: 16, listCacheMb: 8 });
  });

  it('never lets the caches together hold more than the total, whatever the total', () => {
    for (let total = 0; total <= 4096; total += total < 64 ? 1 : 37) {
      const budgets = cacheBudgets(total);
      expect(cacheBudgetTotal(budgets)).toBeLessThanOrEqual(total);
      expect([budgets.guideCacheMb, budgets.pageCacheMb, budgets.listCacheMb].every(Number.isInteger)).toBe(true);
    }
  });

  it('takes a budget set on its own in place of its share', () => {
    expect(cacheBudgets(64, (name, mb) => (name === 'PAGE_CACHE_MB' ? 2 : mb))).toEqual({ guideCacheMb: 12, pageCacheMb: 2, listCacheMb: 8 });
    expect(cacheBudgets(64, (name, mb) => (name === 'LIST_CACHE_MB' ? 1 : mb))).toEqual({ guideCacheMb: 12, pageCacheMb: 16, listCacheMb: 1 });
  });

  it('keeps nothing with a zero budget', () => {
    expect(cacheBudgets(0)).toEqual({ guideCacheMb: 0, pageCacheMb: 0, listCacheMb: 0 });
  });
});
