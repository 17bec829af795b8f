import { Global, Module } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { TeamDirectory } from '@rc/guides-domain';
import { GuideTeamBodies } from '@rc/guides-http';
import { UserSummaries } from '@rc/identity-contracts';
import { ReputationStandings, TeamMembershipsOfUsers, UserStandings } from '@rc/identity-http';
import { MikroOrmReputationQueries } from '@rc/reputation-infra-mikro-orm';
import { TeamReader } from '@rc/teams-http';
import { MikroOrmTeamQueries } from '@rc/teams-infra-mikro-orm';
import type { AppConfig } from '../config/config.js';
import { APP_CONFIG } from '../core.module.js';

/**
 * Ports one context declares and another answers, bound here, in the composition root, so that no
 * context reads another's infra: a user's standing (reputation and badge counts, team ids), composed
 * by identity from the reputation and teams queries; and the teams of a guide's editors and guide pages.
 */
@Global()
@Module({
  providers: [
    { provide: ReputationStandings, inject: [MikroORM], useFactory: (orm: MikroORM): ReputationStandings => { const q = new MikroOrmReputationQueries(orm.em); return { of: (ids) => q.standings(ids) }; } },
    { provide: TeamMembershipsOfUsers, inject: [MikroORM], useFactory: (orm: MikroORM): TeamMembershipsOfUsers => { const teams = new MikroOrmTeamQueries(orm.em); return { of: (userIds) => teams.teamIdsOfUsers(userIds) }; } },
    { provide: UserStandings, inject: [ReputationStandings, TeamMembershipsOfUsers], useFactory: (r: ReputationStandings, t: TeamMembershipsOfUsers) => new UserStandings(r, t) },
    { provide: TeamDirectory, inject: [MikroORM], useFactory: (orm: MikroORM): TeamDirectory => { const q = new MikroOrmTeamQueries(orm.em); return { teamIdsOf: async (id) => (await q.teamIdsOfUsers([id])).get(id) ?? [], exists: async (id) => (await q.findMany([id])).length > 0 }; } },
    { provide: GuideTeamBodies, inject: [MikroORM, UserSummaries, APP_CONFIG], useFactory: (orm: MikroORM, u: UserSummaries, c: AppConfig): GuideTeamBodies => { const q = new MikroOrmTeamQueries(orm.em); const r = new TeamReader(u, c); return { of: async (ids) => r.teams(await q.findMany(ids)) }; } },
  ],
  exports: [UserStandings, TeamDirectory, GuideTeamBodies],
})
export class PeopleModule {}
