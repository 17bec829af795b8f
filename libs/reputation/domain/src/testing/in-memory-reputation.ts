import { NO_BADGES, type Badge, type BadgeCategory, type UserMetrics } from '../model/badge.js';
import type { Fact } from '../model/facts.js';
import type { LedgerEntry } from '../model/point-table.js';
import { BadgeCatalogue, ReputationQueries, ReputationStore, type AuditMismatch, type BadgeListEntry, type Standing } from '../ports/reputation.ports.js';

interface Award {
  readonly userId: number;
  readonly badgeId: number;
  readonly occasion: string;
  readonly at: Date;
}

const factKey = (f: Fact) => `${f.userId}:${f.kind}:${f.guideId}:${f.otherUserId}`;

/**
 * The reputation tables in memory, answering as the SQL adapter does: one claim per event id, one
 * award per (user, badge, occasion), totals moved with every ledger entry.
 */
export class InMemoryReputation extends ReputationStore {
  readonly ledger: LedgerEntry[] = [];
  readonly awards: Award[] = [];
  readonly totals = new Map<number, number>();
  private readonly claimed = new Set<string>();
  private readonly facts = new Map<string, Fact>();

  async claimEvent(eventId: string): Promise<boolean> {
    if (this.claimed.has(eventId)) return false;
    this.claimed.add(eventId);
    return true;
  }

  async setFact(fact: Fact, on: boolean): Promise<boolean> {
    const key = factKey(fact);
    if (this.facts.has(key) === on) return false;
    if (on) this.facts.set(key, { ...fact });
    else this.facts.delete(key);
    return true;
  }

  async record(entry: LedgerEntry): Promise<void> {
    this.ledger.push({ ...entry });
    this.totals.set(entry.userId, (this.totals.get(entry.userId) ?? 0) + entry.points);
  }

  async metrics(userId: number, guideId: number | null): Promise<UserMetrics> {
    const of = (kind: Fact['kind'], guide?: number) => [...this.facts.values()].filter((f) => f.userId === userId && f.kind === kind && (guide === undefined || f.guideId === guide)).length;
    return {
      guides_published: of('published'),
      teardowns_published: of('teardown_published'),
      guides_completed: of('completed'),
      reputation: this.totals.get(userId) ?? 0,
      ...(guideId === null ? {} : { guide: { id: guideId, guide_completions: of('completion_received', guideId), guide_favorites: of('favorite_received', guideId) } }),
    };
  }

  async award(userId: number, badgeId: number, occasion: string, at: Date): Promise<boolean> {
    if (this.awards.some((a) => a.userId === userId && a.badgeId === badgeId && a.occasion === occasion)) return false;
    this.awards.push({ userId, badgeId, occasion, at: new Date(at) });
    return true;
  }

  // --- Test helpers (not part of the port) ---

  total(userId: number): number {
    return this.totals.get(userId) ?? 0;
  }

  badgesOf(userId: number): number[] {
    return this.awards.filter((a) => a.userId === userId).map((a) => a.badgeId);
  }
}

export class InMemoryBadgeCatalogue extends BadgeCatalogue {
  constructor(private readonly badges: readonly Badge[]) {
    super();
  }

  async enabled(): Promise<Badge[]> {
    return [...this.badges].sort((a, b) => a.id - b.id);
  }
}

export class InMemoryReputationQueries extends ReputationQueries {
  constructor(
    private readonly store: InMemoryReputation,
    private readonly badges: readonly Badge[],
  ) {
    super();
  }

  async standings(userIds: readonly number[]): Promise<Map<number, Standing>> {
    const out = new Map<number, Standing>();
    for (const userId of userIds) {
      const held = this.store.awards.filter((a) => a.userId === userId).map((a) => this.badges.find((b) => b.id === a.badgeId)!);
      if (!this.store.totals.has(userId) && held.length === 0) continue;
      const count = (type: Badge['type']) => held.filter((b) => b.type === type).length;
      out.set(userId, { reputation: this.store.total(userId), badgeCounts: held.length ? { bronze: count('bronze'), silver: count('silver'), gold: count('gold'), total: held.length } : NO_BADGES });
    }
    return out;
  }

  async badgeList(userId: number, category: BadgeCategory | null): Promise<BadgeListEntry[]> {
    const entries = this.badges
      .filter((b) => category === null || b.category === category)
      .map((badge) => {
        const mine = this.store.awards.filter((a) => a.userId === userId && a.badgeId === badge.id);
        const last = mine.reduce<Date | null>((latest, a) => (latest === null || a.at > latest ? a.at : latest), null);
        return { badge, numUsers: new Set(this.store.awards.filter((a) => a.badgeId === badge.id).map((a) => a.userId)).size, earned: mine.length > 0, timesEarned: mine.length, lastEarnedAt: last };
      });
    const earned = entries.filter((e) => e.earned).sort((a, b) => b.lastEarnedAt!.getTime() - a.lastEarnedAt!.getTime() || a.badge.id - b.badge.id);
    const unearned = entries.filter((e) => !e.earned).sort((a, b) => a.badge.id - b.badge.id);
    return [...earned, ...unearned];
  }

  async catalogue(): Promise<Array<{ badge: Badge; numUsers: number }>> {
    return (await this.badgeList(0, null)).map((e) => ({ badge: e.badge, numUsers: e.numUsers })).sort((a, b) => a.badge.id - b.badge.id);
  }

  async audit(): Promise<AuditMismatch[]> {
    const sums = new Map<number, number>();
    for (const e of this.store.ledger) sums.set(e.userId, (sums.get(e.userId) ?? 0) + e.points);
    return [...this.store.totals].filter(([userId, total]) => (sums.get(userId) ?? 0) !== total).map(([userId, total]) => ({ userId, total, ledger: sums.get(userId) ?? 0 }));
  }
}
