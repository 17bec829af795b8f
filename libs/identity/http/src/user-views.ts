import type { User, UserCard, UserImages } from '@rc/identity-domain';
import type { UserStandings } from './user-standings.js';
import { presentUser, type UserPresentation } from './user.presenter.js';
import { presentUserSummary, type UserSummaryBody } from './user-summary.presenter.js';
import type { UserResponseDto } from './dto/user.response.dto.js';
import type { ImageObject } from '@rc/media-contracts';

/**
 * User bodies with their standing (reputation, badge counts, team ids) from the other contexts:
 * one UserStandings batch per body or per list, whatever its length.
 */
export class UserViews {
  constructor(
    private readonly standings: UserStandings,
    private readonly baseUrl: string,
    private readonly images: UserImages,
  ) {}

  /** UserInfo (reference §3.3). */
  async info(user: User, presentation: UserPresentation): Promise<UserResponseDto> {
    const [standing, images] = await Promise.all([this.standings.one(user.id), avatarsOf(this.images, [user])]);
    return presentUser(user, presentation, standing, images.get(user.imageId ?? 0) ?? null);
  }

  /** UserSummary items (reference §3.2), in the order given. */
  async summaries(users: readonly User[]): Promise<UserSummaryBody[]> {
    const [standings, images] = await Promise.all([this.standings.of(users.map((u) => u.id)), avatarsOf(this.images, users)]);
    return users.map((u) => presentUserSummary(u, this.baseUrl, standings.get(u.id), images));
  }
}

/** The avatars of these users, in one lookup (none when no user has one). */
export async function avatarsOf(images: UserImages, users: Iterable<UserCard>): Promise<ReadonlyMap<number, ImageObject>> {
  const ids = [...new Set([...users].flatMap((u) => (u.imageId === null ? [] : [u.imageId])))];
  return ids.length ? images.objects(ids) : new Map();
}
