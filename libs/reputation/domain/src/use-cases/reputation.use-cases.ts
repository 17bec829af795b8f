import type { GuideEvent } from '@rc/guides-contracts';
import type { Clock, IntegrationEvents } from '@rc/shared-kernel';
import { BADGE_CATEGORIES, dueAwards, type BadgeCategory } from '../model/badge.js';
import { factChanges } from '../model/facts.js';
import { POINTS } from '../model/point-table.js';
import { InvalidBadgeCategoryError } from '../reputation.errors.js';
import type { BadgeCatalogue, BadgeListEntry, ReputationQueries, ReputationStore } from '../ports/reputation.ports.js';

/** A badge's points can lift a user over a reputation threshold: rules are evaluated again, this many rounds at most. */
const MAX_AWARD_ROUNDS = 5;

export interface HandledEvent {
  /** `false` for a replayed event, which changes nothing. */
  readonly handled: boolean;
  /** Ledger entries written. */
  readonly entries: number;
  /** Badges awarded. */
  readonly awards: number;
}

/**
 * Reacts to one event of the guides context: turns facts on or off, writes the points their change
 * is worth, then awards the badges whose rules are now met. Runs inside the caller's unit of work
 * (the delivery's transaction), and is idempotent twice over: a replayed event id is skipped, and
 * a fact already in the state an event asks for earns nothing again.
 */
export class HandleGuideEvent {
  constructor(
    private readonly store: ReputationStore,
    private readonly badges: BadgeCatalogue,
    private readonly clock: Clock,
    /** Awards are published to the outside world (webhooks) in the same unit of work. */
    private readonly events: IntegrationEvents,
  ) {}

  async execute(eventId: string, event: GuideEvent): Promise<HandledEvent> {
    const at = new Date(event.at * 1000);
    if (!(await this.store.claimEvent(eventId, this.clock.now()))) return { handled: false, entries: 0, awards: 0 };
    let entries = 0;
    const touched = new Map<number, number | null>();
    for (const change of factChanges(event)) {
      const { fact } = change;
      // Per-guide rules look at the event's guide for its author only.
      touched.set(fact.userId, fact.userId === event.authorId ? event.guideId : null);
      if (!(await this.store.setFact(fact, change.on, at))) continue;
      if (change.points) {
        await this.store.record({ userId: fact.userId, points: change.points.points, cause: change.points.cause, guideId: fact.guideId, badgeId: null, eventId, at });
        entries++;
      }
    }
    let awards = 0;
    if (touched.size > 0) {
      const catalogue = await this.badges.enabled();
      for (const [userId, guideId] of touched) {
        for (let round = 0; round < MAX_AWARD_ROUNDS; round++) {
          const metrics = await this.store.metrics(userId, guideId);
          let awardedThisRound = 0;
          for (const due of dueAwards(catalogue, metrics)) {
            if (!(await this.store.award(userId, due.badge.id, due.occasion, at))) continue;
            await this.store.record({ userId, points: POINTS.badge[due.badge.type], cause: 'badge', guideId, badgeId: due.badge.id, eventId, at });
            await this.events.publish({ type: 'badge.awarded', resource: `user:${userId}`, data: { userid: userId, badgeid: due.badge.id, name: due.badge.name, guideid: guideId }, at });
            entries++;
            awardedThisRound++;
          }
          awards += awardedThisRound;
          if (awardedThisRound === 0) break;
        }
      }
    }
    return { handled: true, entries, awards };
  }
}

export function badgeCategoryOf(value: unknown): BadgeCategory | null {
  if (value === undefined || value === null || value === '') return null;
  const category = BADGE_CATEGORIES.find((c) => c === value);
  if (!category) throw new InvalidBadgeCategoryError();
  return category;
}

/** A user's badge list (reference §3.15); the caller has checked that the user exists. */
export class GetUserBadges {
  constructor(private readonly queries: ReputationQueries) {}

  async execute(input: { userId: number; category?: unknown }): Promise<BadgeListEntry[]> {
    return this.queries.badgeList(input.userId, badgeCategoryOf(input.category));
  }
}
