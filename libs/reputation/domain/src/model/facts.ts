import type { GuideEvent } from '@rc/guides-contracts';
import { POINTS, type LedgerCause } from './point-table.js';

/**
 * What reputation remembers of the guides context: facts that are on or off. Points are given
 * only when a fact turns on (and taken back when it turns off), so an event that arrives twice
 * changes nothing the second time.
 */
export const FACT_KINDS = ['published', 'teardown_published', 'completed', 'completion_received', 'favorite_received'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export interface Fact {
  readonly userId: number;
  readonly kind: FactKind;
  readonly guideId: number;
  /** The other user involved (who completed or favourited), 0 when none. */
  readonly otherUserId: number;
}

/** A fact an event turns on or off, and the points that go with the change. */
export interface FactChange {
  readonly fact: Fact;
  readonly on: boolean;
  readonly points?: { readonly points: number; readonly cause: LedgerCause };
}

/** The fact changes an event from the guides context means. */
export function factChanges(event: GuideEvent): FactChange[] {
  const g = event.guideId;
  switch (event.type) {
    case 'GuidePublished': {
      const changes: FactChange[] = [
        { fact: { userId: event.authorId, kind: 'published', guideId: g, otherUserId: 0 }, on: true, points: { points: POINTS.guidePublished, cause: 'guide_published' } },
      ];
      if (event.guideType === 'teardown') changes.push({ fact: { userId: event.authorId, kind: 'teardown_published', guideId: g, otherUserId: 0 }, on: true });
      return changes;
    }
    case 'GuideUnpublished':
      return [
        { fact: { userId: event.authorId, kind: 'published', guideId: g, otherUserId: 0 }, on: false, points: { points: -POINTS.guidePublished, cause: 'guide_unpublished' } },
        { fact: { userId: event.authorId, kind: 'teardown_published', guideId: g, otherUserId: 0 }, on: false },
      ];
    case 'GuideCompleted':
    case 'GuideUncompleted': {
      const on = event.type === 'GuideCompleted';
      const changes: FactChange[] = [{ fact: { userId: event.userId, kind: 'completed', guideId: g, otherUserId: 0 }, on }];
      if (event.userId !== event.authorId) {
        changes.push({
          fact: { userId: event.authorId, kind: 'completion_received', guideId: g, otherUserId: event.userId },
          on,
          points: on ? { points: POINTS.guideCompleted, cause: 'guide_completed' } : { points: -POINTS.guideCompleted, cause: 'guide_uncompleted' },
        });
      }
      return changes;
    }
    case 'GuideFavorited':
    case 'GuideUnfavorited': {
      if (event.userId === event.authorId) return [];
      const on = event.type === 'GuideFavorited';
      return [
        {
          fact: { userId: event.authorId, kind: 'favorite_received', guideId: g, otherUserId: event.userId },
          on,
          points: on ? { points: POINTS.guideFavorited, cause: 'guide_favorited' } : { points: -POINTS.guideFavorited, cause: 'guide_unfavorited' },
        },
      ];
    }
  }
}
