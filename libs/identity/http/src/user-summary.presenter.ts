import type { User } from '@rc/identity-domain';
import { toUnixSeconds } from '@rc/shared-kernel';
import { NO_STANDING, type UserStanding } from '../people/user-standings.js';

export interface UserSummaryBody {
  userid: number;
  username: string;
  unique_username: string | null;
  join_date: number;
  image: null;
  reputation: number;
  url: string;
  teams: number[];
}

/**
 * UserSummary (reference §3.2): embedded as guide authors and in user lists, without
 * `privileges`. Reputation and team ids come from the user's standing in the other contexts
 * (UserStandings); a user without one shows none.
 */
export function presentUserSummary(user: User, baseUrl: string, standing: UserStanding = NO_STANDING): UserSummaryBody {
  return {
    userid: user.id,
    username: user.username,
    unique_username: user.uniqueUsername,
    join_date: toUnixSeconds(user.joinedAt),
    image: null,
    reputation: standing.reputation,
    url: `${baseUrl}/User/${user.id}/${encodeURIComponent(user.username).replace(/%20/g, '+')}`,
    teams: [...standing.teams],
  };
}

/** The author of content whose account is gone. */
export function unknownUserSummary(userid: number, baseUrl: string): UserSummaryBody {
  return { userid, username: 'Deleted user', unique_username: null, join_date: 0, image: null, reputation: 0, url: `${baseUrl}/User/${userid}`, teams: [] };
}
