import { GetUser, GetUsers, UserNotFoundError, type UserCard, type UserId, type UserImages } from '@rc/identity-domain';
import { UserSummaries, type UserSummary } from '@rc/identity-contracts';
import { parseId } from '@rc/shared-kernel';
import { presentUserSummary } from './user-summary.presenter.js';
import { avatarsOf } from './user-views.js';
import type { UserStanding, UserStandings } from './user-standings.js';

/**
 * The identity context's published UserSummaries: active accounts in one lookup and, when asked,
 * their standing in one batch alongside it.
 */
export class IdentityUserSummaries extends UserSummaries {
  constructor(
    private readonly users: GetUsers,
    private readonly user: GetUser,
    private readonly standings: UserStandings,
    private readonly baseUrl: string,
    private readonly images: UserImages,
  ) {
    super();
  }

  async of(userIds: readonly number[], options: { readonly standings?: boolean } = {}): Promise<Map<number, UserSummary>> {
    const ids = [...new Set(userIds)] as UserId[];
    if (!ids.length) return new Map();
    const [users, standings] = await Promise.all([
      this.users.execute(ids),
      options.standings ? this.standings.of(ids) : new Map<number, UserStanding>(),
    ]);
    const images = await avatarsOf(this.images, users.values());
    return new Map([...users].map(([id, user]: [number, UserCard]) => [id, presentUserSummary(user, this.baseUrl, standings.get(id), images)]));
  }

  async existingUserId(raw: string): Promise<number> {
    const id = parseId(raw);
    if (id === null) throw new UserNotFoundError();
    return (await this.user.execute(id as UserId)).id;
  }
}
