export interface BadgeCounts {
  readonly bronze: number;
  readonly silver: number;
  readonly gold: number;
  readonly total: number;
}

/** What other contexts add to a user object: reputation and badge counts, and team ids. */
export interface UserStanding {
  readonly reputation: number;
  readonly badgeCounts: BadgeCounts;
  readonly teams: readonly number[];
}

export const NO_STANDING: UserStanding = { reputation: 0, badgeCounts: { bronze: 0, silver: 0, gold: 0, total: 0 }, teams: [] };

/** The reputation context's part: points and badge counts per user, in one query for many users (the app binds it). */
export abstract class ReputationStandings {
  abstract of(userIds: readonly number[]): Promise<Map<number, { reputation: number; badgeCounts: BadgeCounts }>>;
}

/** The teams context's part: the ids of the teams each user belongs to, in one query for many users (the app binds it). */
export abstract class TeamMembershipsOfUsers {
  abstract of(userIds: readonly number[]): Promise<Map<number, number[]>>;
}

/**
 * Every user object (UserSummary, UserInfo) shows reputation, badge counts and team ids, which
 * belong to the reputation and teams contexts: this composes them for a batch of users, with two
 * queries whatever the batch size. A user the contexts know nothing of has no standing.
 */
export class UserStandings {
  constructor(
    private readonly reputation: ReputationStandings,
    private readonly teams: TeamMembershipsOfUsers,
  ) {}

  async of(userIds: readonly number[]): Promise<Map<number, UserStanding>> {
    const ids = [...new Set(userIds)];
    const out = new Map<number, UserStanding>();
    if (ids.length === 0) return out;
    const [points, teams] = await Promise.all([this.reputation.of(ids), this.teams.of(ids)]);
    for (const id of ids) {
      const p = points.get(id);
      out.set(id, { reputation: p?.reputation ?? 0, badgeCounts: p?.badgeCounts ?? NO_STANDING.badgeCounts, teams: teams.get(id) ?? [] });
    }
    return out;
  }

  async one(userId: number): Promise<UserStanding> {
    return (await this.of([userId])).get(userId) ?? NO_STANDING;
  }
}
