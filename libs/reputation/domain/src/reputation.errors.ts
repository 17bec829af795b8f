import { RuleViolationError } from '@rc/shared-kernel';
import { BADGE_CATEGORIES } from './model/badge.js';

export class InvalidBadgeCategoryError extends RuleViolationError {
  readonly code = 'REPUTATION.INVALID_BADGE_CATEGORY';
  constructor() {
    super(`category must be one of ${BADGE_CATEGORIES.join(', ')}`, [{ field: 'category', message: `category must be one of ${BADGE_CATEGORIES.join(', ')}` }]);
  }
}
