import { GetUsers, type UserId } from '@rc/identity-domain';
import { UserDirectory } from '@rc/teams-domain';

/** The teams context's view of accounts, answered by the identity context's use case. */
export class IdentityUserDirectory extends UserDirectory {
  constructor(private readonly users: GetUsers) {
    super();
  }

  async exists(userId: number): Promise<boolean> {
    return (await this.users.execute([userId as UserId])).has(userId);
  }
}
