import type { Badge, BadgeCategory, BadgeCounts, UserMetrics } from '../model/badge.js';
import type { Fact } from '../model/facts.js';
import type { LedgerEntry } from '../model/point-table.js';

/**
 * The reputation context's writes. Every method joins the caller's unit of work: the delivery of
 * one event (its claim, facts, ledger entries and awards) commits together or not at all.
 */
export abstract class ReputationStore {
  /** Notes that the event was handled; `false` when it already was (a replay: handle nothing). */
  abstract claimEvent(eventId: string, at: Date): Promise<boolean>;
  /** Turns a fact on or off; `true` only when this changed it. */
  abstract setFact(fact: Fact, on: boolean, at: Date): Promise<boolean>;
  /** Appends to the ledger and moves the user's total by the same points. */
  abstract record(entry: LedgerEntry): Promise<void>;
  /** The figures badge rules look at, for one user and optionally one guide of theirs. */
  abstract metrics(userId: number, guideId: number | null): Promise<UserMetrics>;
  /** Awards a badge for an occasion; `false` when the user already holds that award. */
  abstract award(userId: number, badgeId: number, occasion: string, at: Date): Promise<boolean>;
}

export abstract class BadgeCatalogue {
  /** Enabled badges, by id. */
  abstract enabled(): Promise<Badge[]>;
}

export interface Standing {
  readonly reputation: number;
  readonly badgeCounts: BadgeCounts;
}

/** A badge as a user's badge list shows it (reference §3.15). */
export interface BadgeListEntry {
  readonly badge: Badge;
  /** How many users hold it. */
  readonly numUsers: number;
  readonly earned: boolean;
  readonly timesEarned: number;
  /** The latest time it was earned, or `null`. */
  readonly lastEarnedAt: Date | null;
}

export interface AuditMismatch {
  readonly userId: number;
  readonly total: number;
  readonly ledger: number;
}

export abstract class ReputationQueries {
  /** Points and badge counts of many users in one query; users with neither are left out. */
  abstract standings(userIds: readonly number[]): Promise<Map<number, Standing>>;
  /**
   * Every enabled badge (of one category when given) with the user's status: earned ones first,
   * most recently earned first, then the others by badge id.
   */
  abstract badgeList(userId: number, category: BadgeCategory | null): Promise<BadgeListEntry[]>;
  /** The enabled catalogue by badge id, with how many users hold each. */
  abstract catalogue(): Promise<Array<{ badge: Badge; numUsers: number }>>;
  /** Users whose stored total differs from the sum of their ledger entries. */
  abstract audit(): Promise<AuditMismatch[]>;
}
