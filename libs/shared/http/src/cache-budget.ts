/**
 * How a process's budget for kept answers (`CACHE_MB`) is shared among its byte-bounded caches:
 * the gzipped guide bodies (and, within a quarter of their budget more, the most recently sent
 * ones inflated), the two caches of kept pages (wiki pages, search answers) and the two of kept
 * lists (guide lists, comments), each counted by its own byte budget. Shares of the whole, so
 * their budgets together never exceed it: a fifth for the guide bodies (a quarter with their
 * inflated copies), a quarter for each kind of page, an eighth for each kind of list. A page cache
 * fills only while its pages are asked for, and a page costs far more to build again than a guide
 * body (a category page's eight statements, a search), while the most read guide bodies are a
 * small part of them all. Lists are read over fewer keys (the first pages of a list, the threads
 * read most), and their answers are smaller.
 */
export interface CacheBudgets {
  /** The gzipped guide bodies' budget, in MiB (the inflated copies take a quarter of it more). */
  readonly guideCacheMb: number;
  /** Each page cache's budget (wiki pages, search answers), in MiB. */
  readonly pageCacheMb: number;
  /** Each list cache's budget (guide lists, comment lists and threads), in MiB. */
  readonly listCacheMb: number;
}

/** The number of page caches that each take {@link CacheBudgets.pageCacheMb}. */
export const PAGE_CACHES = 2;

/** The number of list caches that each take {@link CacheBudgets.listCacheMb}. */
export const LIST_CACHES = 2;

/** The guide bodies' budget counts this much more for their inflated copies. */
export const INFLATED_SHARE = 1 / 4;

/**
 * Splits `totalMb` among the caches (whole MiB, rounded down: the sum never exceeds the total).
 * `share`, when given, reads each budget set on its own (`GUIDE_CACHE_MB`, `PAGE_CACHE_MB`,
 * `LIST_CACHE_MB`), with its share of the total as the default.
 */
export function cacheBudgets(totalMb: number, share: (name: 'GUIDE_CACHE_MB' | 'PAGE_CACHE_MB' | 'LIST_CACHE_MB', mb: number) => number = (_name, mb) => mb): CacheBudgets {
  const total = Math.max(0, Math.floor(totalMb));
  return {
    guideCacheMb: share('GUIDE_CACHE_MB', Math.floor(total / 5)),
    pageCacheMb: share('PAGE_CACHE_MB', Math.floor(total / 4)),
    listCacheMb: share('LIST_CACHE_MB', Math.floor(total / 8)),
  };
}

/** What caches with these budgets may hold together, in MiB (the inflated guide bodies included). */
export function cacheBudgetTotal(budgets: CacheBudgets): number {
  return budgets.guideCacheMb * (1 + INFLATED_SHARE) + PAGE_CACHES * budgets.pageCacheMb + LIST_CACHES * budgets.listCacheMb;
}
