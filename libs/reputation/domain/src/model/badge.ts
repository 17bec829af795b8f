export const BADGE_TYPES = ['bronze', 'silver', 'gold'] as const;
export type BadgeType = (typeof BADGE_TYPES)[number];

export const BADGE_CATEGORIES = ['badgeGuide', 'badgeAnswers', 'badgeGeneral', 'badgeWorkbench'] as const;
export type BadgeCategory = (typeof BADGE_CATEGORIES)[number];

/**
 * What a badge rule measures. `guides_published`, `teardowns_published`, `guides_completed` and
 * `reputation` are per user; `guide_completions` (completions of one guide by other users) and
 * `guide_favorites` (favourites of one guide by other users) are per guide of the user's.
 */
export const BADGE_METRICS = ['guides_published', 'teardowns_published', 'guides_completed', 'reputation', 'guide_completions', 'guide_favorites'] as const;
export type BadgeMetric = (typeof BADGE_METRICS)[number];

export const PER_GUIDE_METRICS: ReadonlySet<BadgeMetric> = new Set(['guide_completions', 'guide_favorites']);

export interface BadgeRule {
  readonly metric: BadgeMetric;
  readonly threshold: number;
}

/** A badge of the catalogue. A `multiple` badge with a per-guide rule is earned once per guide. */
export interface Badge {
  readonly id: number;
  readonly name: string;
  readonly type: BadgeType;
  readonly category: BadgeCategory;
  readonly description: string;
  readonly multiple: boolean;
  readonly icon: string | null;
  readonly image: string;
  readonly secondaryColor: string;
  /** `null`: awarded by hand or by a feature this service does not have (never automatically). */
  readonly rule: BadgeRule | null;
}

/** What the rules look at for one user, and for one guide of theirs when an event concerns one. */
export interface UserMetrics {
  readonly guides_published: number;
  readonly teardowns_published: number;
  readonly guides_completed: number;
  readonly reputation: number;
  /** Present when the event concerned a guide the user wrote. */
  readonly guide?: { readonly id: number; readonly guide_completions: number; readonly guide_favorites: number };
}

/** An award a rule grants: the badge, and the occasion (`guide:<id>` for a per-guide multiple badge, '' otherwise). */
export interface DueAward {
  readonly badge: Badge;
  readonly occasion: string;
}

/** The badges whose rule the metrics now meet. Already-held awards are filtered by the store (idempotent). */
export function dueAwards(badges: readonly Badge[], metrics: UserMetrics): DueAward[] {
  const due: DueAward[] = [];
  for (const badge of badges) {
    const rule = badge.rule;
    if (!rule) continue;
    if (PER_GUIDE_METRICS.has(rule.metric)) {
      const guide = metrics.guide;
      const value = guide ? guide[rule.metric as 'guide_completions' | 'guide_favorites'] : 0;
      if (guide && value >= rule.threshold) due.push({ badge, occasion: badge.multiple ? `guide:${guide.id}` : '' });
    } else if (metrics[rule.metric as Exclude<BadgeMetric, 'guide_completions' | 'guide_favorites'>] >= rule.threshold) {
      due.push({ badge, occasion: '' });
    }
  }
  return due;
}

export interface BadgeCounts {
  readonly bronze: number;
  readonly silver: number;
  readonly gold: number;
  readonly total: number;
}

export const NO_BADGES: BadgeCounts = { bronze: 0, silver: 0, gold: 0, total: 0 };
