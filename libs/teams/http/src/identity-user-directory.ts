import { UserSummaries } from '@rc/identity-contracts';
import { UserDirectory } from '@rc/teams-domain';

/** The teams context's view of accounts, answered by the identity context's published UserSummaries. */
export class IdentityUserDirectory extends UserDirectory {
  constructor(private readonly users: UserSummaries) {
    super();
  }

  async exists(userId: number): Promise<boolean> {
    return (await this.users.of([userId])).has(userId);
  }
}
