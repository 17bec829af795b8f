import { privilegesOf, type User } from '@rc/identity-domain';
import { toUnixSeconds } from '@rc/shared-kernel';
import { renderWiki, type ImageResponseDto } from '@rc/shared-http';
import type { ImageObject } from '@rc/media-contracts';
import { NO_STANDING, type UserStanding } from './user-standings.js';
import type { UserResponseDto } from './dto/user.response.dto.js';

export interface UserPresentation {
  /** The viewer is this user: viewer-only fields are added. */
  readonly self: boolean;
}

/**
 * The UserInfo body: an explicit whitelist of fields, never the aggregate itself. Reputation,
 * badge counts and team ids come from the user's standing in the other contexts (UserStandings);
 * a user without one shows none.
 */
export function presentUser(user: User, { self }: UserPresentation, standing: UserStanding = NO_STANDING, image: ImageObject | null = null): UserResponseDto {
  const privileges = privilegesOf(user.role);
  const badges = standing.badgeCounts;
  const body: UserResponseDto = {
    userid: user.id,
    username: user.username,
    unique_username: user.uniqueUsername,
    join_date: toUnixSeconds(user.joinedAt),
    image: image as ImageResponseDto | null,
    reputation: standing.reputation,
    teams: [...standing.teams],
    privileges,
    greatest_privilege: privileges[privileges.length - 1]!,
    certification_count: 0,
    badge_counts: { bronze: badges.bronze, silver: badges.silver, gold: badges.gold, total: badges.total },
    summary: user.summary,
    about_raw: user.about || false,
    about_rendered: user.about ? renderWiki(user.about) || false : false,
    location: user.location,
    langid: user.langid,
  };
  if (self) {
    body.links = user.role === 'Admin' ? { manage: '/Manage' } : {};
    body.unread_notification_count = 0;
  }
  return body;
}
