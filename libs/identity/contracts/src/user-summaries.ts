import type { ImageObject } from '@rc/media-contracts';

/**
 * UserSummary (reference §3.2): how other objects show a user (guide and page authors, team
 * members), without `privileges`. Reputation and team ids are the user's standing, when asked.
 */
export interface UserSummary {
  userid: number;
  username: string;
  unique_username: string | null;
  join_date: number;
  /** The avatar's Image object, or null. */
  image: ImageObject | null;
  reputation: number;
  url: string;
  teams: number[];
}

/** The author of content whose account is gone. */
export function unknownUserSummary(userid: number, baseUrl: string): UserSummary {
  return { userid, username: 'Deleted user', unique_username: null, join_date: 0, image: null, reputation: 0, url: `${baseUrl}/User/${userid}`, teams: [] };
}

/**
 * What the identity context publishes of its users to the other contexts' HTTP adapters (the
 * identity HTTP module provides it). Other contexts never read identity's domain.
 */
export abstract class UserSummaries {
  /**
   * The summaries of the active accounts among `userIds`, by id, in one lookup whatever their
   * number; with `standings`, their reputation and team ids too (one more batch), otherwise none.
   */
  abstract of(userIds: readonly number[], options?: { readonly standings?: boolean }): Promise<Map<number, UserSummary>>;

  /**
   * The id of the active account a path id names; a 404 (identity's "user not found") when `raw`
   * is not an id or names no active account.
   */
  abstract existingUserId(raw: string): Promise<number>;
}
