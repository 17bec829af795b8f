/**
 * The one table of reputation points. Every change of a user's points is a ledger entry naming
 * one of these causes; an undo (unpublish, uncomplete, unfavourite) is an entry of the opposite
 * sign with its own cause, so the ledger alone explains every total.
 *
 * | cause                 | who earns                 | points |
 * |-----------------------|---------------------------|--------|
 * | guide_published       | the author                |    +20 |
 * | guide_unpublished     | the author                |    -20 |
 * | guide_completed       | the author (by another)   |     +5 |
 * | guide_uncompleted     | the author                |     -5 |
 * | guide_favorited       | the author (by another)   |     +2 |
 * | guide_unfavorited     | the author                |     -2 |
 * | badge                 | the badge's holder        | bronze +5, silver +15, gold +50 |
 *
 * A guide earns its author the publishing points once while it stays public; completions and
 * favourites by the author themself earn nothing. Badges, once earned, are kept.
 */
export const POINTS = {
  guidePublished: 20,
  guideCompleted: 5,
  guideFavorited: 2,
  badge: { bronze: 5, silver: 15, gold: 50 },
} as const;

export const LEDGER_CAUSES = [
  'guide_published',
  'guide_unpublished',
  'guide_completed',
  'guide_uncompleted',
  'guide_favorited',
  'guide_unfavorited',
  'badge',
] as const;
export type LedgerCause = (typeof LEDGER_CAUSES)[number];

/** One change of a user's points, with what caused it. */
export interface LedgerEntry {
  readonly userId: number;
  readonly points: number;
  readonly cause: LedgerCause;
  readonly guideId: number | null;
  readonly badgeId: number | null;
  /** The delivered event that caused it (the outbox id), when an event did. */
  readonly eventId: string | null;
  readonly at: Date;
}
