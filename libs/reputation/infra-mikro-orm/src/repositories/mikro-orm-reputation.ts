import type { EntityManager } from '@mikro-orm/postgresql';
import { intArrayLiteral, PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';
import {
  BadgeCatalogue,
  NO_BADGES,
  ReputationQueries,
  ReputationStore,
  type AuditMismatch,
  type Badge,
  type BadgeCategory,
  type BadgeListEntry,
  type Fact,
  type LedgerEntry,
  type Standing,
  type UserMetrics,
} from '@rc/reputation-domain';

const BADGE_COLUMNS = 'b.id, b.name, b.type, b.category, b.description, b.multiple, b.icon, b.image, b.secondary_color, b.rule_metric, b.rule_threshold';

interface BadgeSqlRow {
  id: number;
  name: string;
  type: Badge['type'];
  category: Badge['category'];
  description: string;
  multiple: boolean;
  icon: string | null;
  image: string;
  secondary_color: string;
  rule_metric: string | null;
  rule_threshold: number | null;
}

const badgeOf = (r: BadgeSqlRow): Badge => ({
  id: r.id,
  name: r.name,
  type: r.type,
  category: r.category,
  description: r.description,
  multiple: r.multiple,
  icon: r.icon,
  image: r.image,
  secondaryColor: r.secondary_color,
  rule: r.rule_metric === null || r.rule_threshold === null ? null : { metric: r.rule_metric as NonNullable<Badge['rule']>['metric'], threshold: r.rule_threshold },
});

/**
 * The standing of the users a body or a page shows (on every first read of one): per wanted user,
 * its total by key and its awards by the primary key's user_id prefix, so that for a login's one
 * user it is two index probes (a CTE of unknown size had the planner hash whole tables).
 */
const STANDINGS = new PreparedStatement(
  `SELECT w.user_id, coalesce(t.points, 0) AS reputation, h.bronze, h.silver, h.gold, h.total
     FROM (SELECT DISTINCT unnest(?::int[]) AS user_id) w
     LEFT JOIN reputation_totals t ON t.user_id = w.user_id
     CROSS JOIN LATERAL (
       SELECT count(*) FILTER (WHERE b.type = 'bronze')::int AS bronze,
              count(*) FILTER (WHERE b.type = 'silver')::int AS silver,
              count(*) FILTER (WHERE b.type = 'gold')::int AS gold,
              count(*)::int AS total
         FROM badge_awards a JOIN badges b ON b.id = a.badge_id
        WHERE a.user_id = w.user_id) h
    WHERE t.user_id IS NOT NULL OR h.total > 0`,
);

export class MikroOrmReputationStore extends ReputationStore {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async claimEvent(eventId: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ event_id: string }[]>('INSERT INTO reputation_inbox (event_id, handled_at) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING event_id', [eventId, at]);
    return rows.length === 1;
  }

  async setFact(fact: Fact, on: boolean, at: Date): Promise<boolean> {
    const key = [fact.userId, fact.kind, fact.guideId, fact.otherUserId];
    const rows = on
      ? await this.em.execute<unknown[]>(
          'INSERT INTO reputation_facts (user_id, kind, guide_id, other_user_id, since) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING user_id',
          [...key, at],
        )
      : await this.em.execute<unknown[]>('DELETE FROM reputation_facts WHERE user_id = ? AND kind = ? AND guide_id = ? AND other_user_id = ? RETURNING user_id', key);
    return rows.length === 1;
  }

  async record(entry: LedgerEntry): Promise<void> {
    await this.em.execute(
      `WITH entry AS (
         INSERT INTO reputation_ledger (user_id, points, cause, guide_id, badge_id, event_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         RETURNING user_id, points
       )
       INSERT INTO reputation_totals (user_id, points) SELECT user_id, points FROM entry
       ON CONFLICT (user_id) DO UPDATE SET points = reputation_totals.points + EXCLUDED.points`,
      [entry.userId, entry.points, entry.cause, entry.guideId, entry.badgeId, entry.eventId, entry.at],
    );
  }

  async metrics(userId: number, guideId: number | null): Promise<UserMetrics> {
    const [row] = await this.em.execute<
      { published: number; teardowns: number; completed: number; guide_completions: number; guide_favorites: number; reputation: number }[]
    >(
      `SELECT count(*) FILTER (WHERE kind = 'published')::int AS published,
              count(*) FILTER (WHERE kind = 'teardown_published')::int AS teardowns,
              count(*) FILTER (WHERE kind = 'completed')::int AS completed,
              count(*) FILTER (WHERE kind = 'completion_received' AND guide_id = ?)::int AS guide_completions,
              count(*) FILTER (WHERE kind = 'favorite_received' AND guide_id = ?)::int AS guide_favorites,
              coalesce((SELECT points FROM reputation_totals WHERE user_id = ?), 0) AS reputation
         FROM reputation_facts WHERE user_id = ?`,
      [guideId ?? 0, guideId ?? 0, userId, userId],
    );
    return {
      guides_published: row!.published,
      teardowns_published: row!.teardowns,
      guides_completed: row!.completed,
      reputation: row!.reputation,
      ...(guideId === null ? {} : { guide: { id: guideId, guide_completions: row!.guide_completions, guide_favorites: row!.guide_favorites } }),
    };
  }

  async award(userId: number, badgeId: number, occasion: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<unknown[]>(
      'INSERT INTO badge_awards (user_id, badge_id, occasion, awarded_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING user_id',
      [userId, badgeId, occasion, at],
    );
    return rows.length === 1;
  }
}

export class MikroOrmBadgeCatalogue extends BadgeCatalogue {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async enabled(): Promise<Badge[]> {
    return (await this.em.execute<BadgeSqlRow[]>(`SELECT ${BADGE_COLUMNS} FROM badges b WHERE b.enabled ORDER BY b.id`)).map(badgeOf);
  }
}

export class MikroOrmReputationQueries extends ReputationQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async standings(userIds: readonly number[]): Promise<Map<number, Standing>> {
    const out = new Map<number, Standing>();
    if (userIds.length === 0) return out;
    const rows = await queryPrepared<{ user_id: number; reputation: number; bronze: number; silver: number; gold: number; total: number }>(this.em, STANDINGS, [intArrayLiteral(userIds)]);
    for (const r of rows) {
      out.set(r.user_id, { reputation: r.reputation, badgeCounts: r.total ? { bronze: r.bronze, silver: r.silver, gold: r.gold, total: r.total } : NO_BADGES });
    }
    return out;
  }

  async badgeList(userId: number, category: BadgeCategory | null): Promise<BadgeListEntry[]> {
    const rows = await this.em.execute<(BadgeSqlRow & { num_users: number; times_earned: number; last_earned_at: Date | string | null })[]>(
      `SELECT ${BADGE_COLUMNS},
              (SELECT count(DISTINCT h.user_id)::int FROM badge_awards h WHERE h.badge_id = b.id) AS num_users,
              count(a.user_id)::int AS times_earned,
              max(a.awarded_at) AS last_earned_at
         FROM badges b
         LEFT JOIN badge_awards a ON a.badge_id = b.id AND a.user_id = ?
        WHERE b.enabled AND (?::text IS NULL OR b.category = ?)
        GROUP BY b.id
        ORDER BY count(a.user_id) = 0, max(a.awarded_at) DESC NULLS LAST, b.id`,
      [userId, category, category],
    );
    return rows.map((r) => ({
      badge: badgeOf(r),
      numUsers: r.num_users,
      earned: r.times_earned > 0,
      timesEarned: r.times_earned,
      lastEarnedAt: r.last_earned_at === null ? null : new Date(r.last_earned_at),
    }));
  }

  async catalogue(): Promise<Array<{ badge: Badge; numUsers: number }>> {
    const rows = await this.em.execute<(BadgeSqlRow & { num_users: number })[]>(
      `SELECT ${BADGE_COLUMNS}, (SELECT count(DISTINCT h.user_id)::int FROM badge_awards h WHERE h.badge_id = b.id) AS num_users
         FROM badges b WHERE b.enabled ORDER BY b.id`,
    );
    return rows.map((r) => ({ badge: badgeOf(r), numUsers: r.num_users }));
  }

  async audit(): Promise<AuditMismatch[]> {
    const rows = await this.em.execute<{ user_id: number; total: number; ledger: number }[]>(
      `SELECT coalesce(t.user_id, l.user_id) AS user_id, coalesce(t.points, 0) AS total, coalesce(l.points, 0)::int AS ledger
         FROM reputation_totals t
         FULL JOIN (SELECT user_id, sum(points) AS points FROM reputation_ledger GROUP BY user_id) l ON l.user_id = t.user_id
        WHERE coalesce(t.points, 0) <> coalesce(l.points, 0)
        ORDER BY 1`,
    );
    return rows.map((r) => ({ userId: r.user_id, total: r.total, ledger: r.ledger }));
  }
}
