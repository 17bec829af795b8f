import type { UserCard } from '@rc/identity-domain';
import { toUnixSeconds } from '@rc/shared-kernel';
import type { UserSummary } from '@rc/identity-contracts';
import { imageOrNull, type ImageObject } from '@rc/media-contracts';
import { NO_STANDING, type UserStanding } from './user-standings.js';

export type UserSummaryBody = UserSummary;

/**
 * UserSummary (reference §3.2): embedded as guide authors and in user lists, without
 * `privileges`. Reputation and team ids come from the user's standing in the other contexts
 * (UserStandings); a user without one shows none.
 */
export function presentUserSummary(user: UserCard, baseUrl: string, standing: UserStanding = NO_STANDING, images: ReadonlyMap<number, ImageObject> = new Map()): UserSummaryBody {
  return {
    userid: user.id,
    username: user.username,
    unique_username: user.uniqueUsername,
    join_date: toUnixSeconds(user.joinedAt),
    image: imageOrNull(images, user.imageId),
    reputation: standing.reputation,
    url: `${baseUrl}/User/${user.id}/${encodeURIComponent(user.username).replace(/%20/g, '+')}`,
    teams: [...standing.teams],
  };
}
