import { unknownUserSummary, type UserSummary } from '@rc/identity-contracts';
import { toUnixSeconds } from '@rc/shared-kernel';
import type { TeamView } from '@rc/teams-domain';

export interface TeamBody {
  teamid: number;
  name: string;
  owner: number;
  reputation: number;
  image: null;
  url: string;
  member_count: number;
  description: string;
  new_member_since: number;
}

/** The team page on the site: `/Team/<id>/<name>`, spaces as `+` (as user pages). */
export function teamUrl(baseUrl: string, teamId: number, name: string): string {
  return `${baseUrl}/Team/${teamId}/${encodeURIComponent(name).replace(/%20/g, '+')}`;
}

/** Team (reference §3.14). `reputation`: the members' total, computed by the caller. */
export function presentTeam(view: TeamView, reputation: number, baseUrl: string): TeamBody {
  return {
    teamid: view.teamId,
    name: view.name,
    owner: view.ownerId,
    reputation,
    image: null,
    url: teamUrl(baseUrl, view.teamId, view.name),
    member_count: view.memberIds.length,
    description: view.description,
    new_member_since: toUnixSeconds(view.newMemberSince),
  };
}

/**
 * A member as team member lists show them: a UserSummary without `privileges`, with reputation
 * and team ids from the user's standing. An account that is no longer active shows as a
 * placeholder with no standing.
 */
export function presentMember(userId: number, user: UserSummary | undefined, baseUrl: string): UserSummary {
  return user ?? unknownUserSummary(userId, baseUrl);
}
