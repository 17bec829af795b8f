import type { User } from '@rc/identity-domain';
import { toUnixSeconds } from '@rc/shared-kernel';

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

/** UserSummary (reference §3.2): embedded as guide authors and in user lists. */
export function presentUserSummary(user: User, baseUrl: string): UserSummaryBody {
  return {
    userid: user.id,
    username: user.username,
    unique_username: user.uniqueUsername,
    join_date: toUnixSeconds(user.joinedAt),
    image: null,
    reputation: 0,
    url: `${baseUrl}/User/${user.id}/${encodeURIComponent(user.username).replace(/%20/g, '+')}`,
    teams: [],
  };
}

/** The author of content whose account is gone. */
export function unknownUserSummary(userid: number, baseUrl: string): UserSummaryBody {
  return { userid, username: 'Deleted user', unique_username: null, join_date: 0, image: null, reputation: 0, url: `${baseUrl}/User/${userid}`, teams: [] };
}
