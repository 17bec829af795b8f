import type { UserSummaries, UserSummary } from '@rc/identity-contracts';
import type { TeamView } from '@rc/teams-domain';
import { presentMember, presentTeam, type TeamBody } from './team.presenter.js';

/**
 * Builds team bodies and member lists. Users, with their reputation and team ids, come from the
 * identity context's published UserSummaries, fetched once for the whole answer, so
 * a page of teams costs the same few queries whatever its size. A team's reputation is computed
 * here, when read, as the sum of its active members' reputation: it is right the moment a member
 * earns points, with nothing to keep in step.
 */
export class TeamReader {
  constructor(
    private readonly users: UserSummaries,
    private readonly config: { readonly publicBaseUrl: string },
  ) {}

  async teams(views: readonly TeamView[]): Promise<TeamBody[]> {
    const users = await this.people(views.flatMap((v) => v.memberIds));
    return views.map((view) => {
      const reputation = view.memberIds.reduce((sum, id) => sum + (users.get(id)?.reputation ?? 0), 0);
      return presentTeam(view, reputation, this.config.publicBaseUrl);
    });
  }

  /** The members, ordered by user id. */
  async members(memberIds: readonly number[]): Promise<UserSummary[]> {
    const ids = [...memberIds].sort((a, b) => a - b);
    const users = await this.people(ids);
    return ids.map((id) => presentMember(id, users.get(id), this.config.publicBaseUrl));
  }

  /** The active accounts among `ids`, with their standing. */
  private async people(ids: readonly number[]): Promise<Map<number, UserSummary>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    return this.users.of(unique, { standings: true });
  }
}
