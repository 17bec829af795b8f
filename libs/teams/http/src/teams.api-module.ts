import { Module } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { GetUsers } from '@rc/identity-domain';
import { Clock, UnitOfWork } from '@rc/shared-kernel';
import { CreateTeam, JoinOrAddMember, ListTeams, RemoveMember, TeamQueries, TeamRepository, UserDirectory, ViewTeam, type TeamDeps } from '@rc/teams-domain';
import { MikroOrmTeamQueries, MikroOrmTeamRepository } from '@rc/teams-infra-mikro-orm';
import type { AppConfig } from '../config/config.js';
import { APP_CONFIG, factory } from '../core.module.js';
import { UserStandings } from '../people/user-standings.js';
import { IdentityUserDirectory } from './identity-user-directory.js';
import { TeamReader } from './team-reader.js';
import { TeamsController } from './teams.controller.js';

const DEPS = Symbol('TeamDeps');

/** The teams context's HTTP adapter: teams and their members. */
@Module({
  controllers: [TeamsController],
  providers: [
    factory(TeamRepository, (orm: MikroORM) => new MikroOrmTeamRepository(orm.em), [MikroORM]),
    factory(TeamQueries, (orm: MikroORM) => new MikroOrmTeamQueries(orm.em), [MikroORM]),
    factory(UserDirectory, (users: GetUsers) => new IdentityUserDirectory(users), [GetUsers]),
    {
      provide: DEPS,
      inject: [TeamRepository, UserDirectory, Clock, UnitOfWork],
      useFactory: (teams: TeamRepository, users: UserDirectory, clock: Clock, uow: UnitOfWork): TeamDeps => ({ teams, users, clock, uow }),
    },
    ...[CreateTeam, JoinOrAddMember, RemoveMember].map((UseCase) => ({ provide: UseCase, inject: [DEPS], useFactory: (deps: TeamDeps) => new UseCase(deps) })),
    factory(ListTeams, (q: TeamQueries) => new ListTeams(q), [TeamQueries]),
    factory(ViewTeam, (q: TeamQueries) => new ViewTeam(q), [TeamQueries]),
    factory(TeamReader, (u: GetUsers, s: UserStandings, c: AppConfig) => new TeamReader(u, s, c), [GetUsers, UserStandings, APP_CONFIG]),
  ],
  exports: [CreateTeam, JoinOrAddMember],
})
export class TeamsApiModule {}
