import type { Badge, BadgeRule } from '../model/badge.js';

const badge = (id: number, name: string, type: Badge['type'], category: Badge['category'], rule: BadgeRule | null, multiple = false): Badge => ({
  id,
  name,
  type,
  category,
  description: name,
  multiple,
  icon: null,
  image: '',
  secondaryColor: '#cccccc',
  rule,
});

/** A small catalogue with one badge of each kind of rule. */
export const TEST_BADGES: readonly Badge[] = [
  badge(1, 'Author', 'bronze', 'badgeGuide', { metric: 'guides_published', threshold: 1 }),
  badge(2, 'Prolific', 'silver', 'badgeGuide', { metric: 'guides_published', threshold: 3 }),
  badge(3, 'Teardown', 'bronze', 'badgeGuide', { metric: 'teardowns_published', threshold: 1 }),
  badge(4, 'Fixer', 'bronze', 'badgeGeneral', { metric: 'guides_completed', threshold: 1 }),
  badge(5, 'Helpful Guide', 'bronze', 'badgeGuide', { metric: 'guide_completions', threshold: 2 }, true),
  badge(6, 'Liked', 'bronze', 'badgeGuide', { metric: 'guide_favorites', threshold: 1 }),
  badge(7, 'Established', 'gold', 'badgeGeneral', { metric: 'reputation', threshold: 60 }),
  badge(8, 'Answerer', 'bronze', 'badgeAnswers', null),
];
