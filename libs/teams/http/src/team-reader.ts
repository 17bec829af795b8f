import { GetUsers, type User, type UserId } from '@rc/identity-domain';
import type { TeamView } from '@rc/teams-domain';
import type { AppConfig } from '../config/config.js';
import type { UserSummaryBody } from '../identity/user-summary.presenter.js';
import type { UserStanding, UserStandings } from '../people/user-standings.js';
import { presentMember, presentTeam, type TeamBody } from './team.presenter.js';

/**
 * Builds team bodies and member lists. Users come from the identity context (GetUsers), their
 * reputation and team ids from the user standings, each fetched once for the whole answer, so
 * a page of teams costs the same few queries whatever its size. A team's reputation is computed
 * here, when read, as the sum of its active members' reputation: it is right the moment a member
 * earns points, with nothing to keep in step.
 */
export class TeamReader {
  constructor(
    private readonly users: GetUsers,
    private readonly standings: UserStandings,
    private readonly config: AppConfig,
  ) {}

  async teams(views: readonly TeamView[]): Promise<TeamBody[]> {
    const { users, standings } = await this.people(views.flatMap((v) => v.memberIds));
    return views.map((view) => {
      const reputation = view.memberIds.reduce((sum, id) => sum + (users.has(id) ? (standings.get(id)?.reputation ?? 0) : 0), 0);
      return presentTeam(view, reputation, this.config.publicBaseUrl);
    });
  }

  /** The members, ordered by user id. */
  async members(memberIds: readonly number[]): Promise<UserSummaryBody[]> {
    const ids = [...memberIds].sort((a, b) => a - b);
    const { users, standings } = await this.people(ids);
    return ids.map((id) => presentMember(id, users.get(id), standings.get(id), this.config.publicBaseUrl));
  }

  private async people(ids: readonly number[]): Promise<{ users: Map<number, User>; standings: Map<number, UserStanding> }> {
    const unique = [...new Set(ids)];
    if (!unique.length) return { users: new Map(), standings: new Map() };
    const users = await this.users.execute(unique as UserId[]);
    const standings = await this.standings.of(unique);
    return { users, standings };
  }
}
