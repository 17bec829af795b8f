import { Global, Module } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { ReputationStandings, TeamMembershipsOfUsers, UserStandings, type BadgeCounts } from '@rc/identity-http';
import { MikroOrmReputationQueries } from '@rc/reputation-infra-mikro-orm';
import { MikroOrmTeamQueries } from '@rc/teams-infra-mikro-orm';

/** The reputation context's totals and badge counts. */
class ReputationContextStandings extends ReputationStandings {
  constructor(private readonly queries: MikroOrmReputationQueries) {
    super();
  }

  of(userIds: readonly number[]): Promise<Map<number, { reputation: number; badgeCounts: BadgeCounts }>> {
    return this.queries.standings(userIds);
  }
}

/**
 * A user's standing (reputation and badge counts, team ids) is composed by the identity context
 * from two ports that the reputation and teams contexts answer: bound here, in the composition
 * root, so that no context reads another's infra.
 */
@Global()
@Module({
  providers: [
    { provide: ReputationStandings, inject: [MikroORM], useFactory: (orm: MikroORM) => new ReputationContextStandings(new MikroOrmReputationQueries(orm.em)) },
    { provide: TeamMembershipsOfUsers, inject: [MikroORM], useFactory: (orm: MikroORM): TeamMembershipsOfUsers => { const teams = new MikroOrmTeamQueries(orm.em); return { of: (userIds) => teams.teamIdsOfUsers(userIds) }; } },
    { provide: UserStandings, inject: [ReputationStandings, TeamMembershipsOfUsers], useFactory: (r: ReputationStandings, t: TeamMembershipsOfUsers) => new UserStandings(r, t) },
  ],
  exports: [UserStandings],
})
export class PeopleModule {}
