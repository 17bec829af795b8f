import type { User } from '@rc/identity-domain';
import type { UserStandings } from './user-standings.js';
import { presentUser, type UserPresentation } from './user.presenter.js';
import { presentUserSummary, type UserSummaryBody } from './user-summary.presenter.js';
import type { UserResponseDto } from './dto/user.response.dto.js';

/**
 * User bodies with their standing (reputation, badge counts, team ids) from the other contexts:
 * one UserStandings batch per body or per list, whatever its length.
 */
export class UserViews {
  constructor(
    private readonly standings: UserStandings,
    private readonly baseUrl: string,
  ) {}

  /** UserInfo (reference §3.3). */
  async info(user: User, presentation: UserPresentation): Promise<UserResponseDto> {
    return presentUser(user, presentation, await this.standings.one(user.id));
  }

  /** UserSummary items (reference §3.2), in the order given. */
  async summaries(users: readonly User[]): Promise<UserSummaryBody[]> {
    const standings = await this.standings.of(users.map((u) => u.id));
    return users.map((u) => presentUserSummary(u, this.baseUrl, standings.get(u.id)));
  }
}
