import { Module, type DynamicModule } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { UserSummaries } from '@rc/identity-contracts';
import { factory } from '@rc/shared-http';
import { Clock, UnitOfWork } from '@rc/shared-kernel';
import { WikiDirectory } from '@rc/catalog-contracts';
import {
  CreateTeam,
  JoinOrAddMember,
  ListTeams,
  RemoveMember,
  RepairServicePages,
  TeamQueries,
  TeamRepairServices,
  TeamRepository,
  UserDirectory,
  ViewTeam,
  type TeamDeps,
} from '@rc/teams-domain';
import { MikroOrmRepairServiceLists, MikroOrmTeamQueries, MikroOrmTeamRepository } from '@rc/teams-infra-mikro-orm';
import { IdentityUserDirectory } from './identity-user-directory.js';
import { TeamReader } from './team-reader.js';
import { TeamsController } from './teams.controller.js';
import { CatalogRepairServicePages, RepairServicesController } from './repair-services.controller.js';

const DEPS = Symbol('TeamDeps');

/** The teams context's HTTP adapter: teams, their members and their repair services (pages from the catalog's WikiDirectory). */
@Module({})
export class TeamsApiModule {
  static register(settings: { readonly publicBaseUrl: string }): DynamicModule {
    return {
      module: TeamsApiModule,
      controllers: [TeamsController, RepairServicesController],
      providers: [
        factory(TeamRepository, (orm: MikroORM) => new MikroOrmTeamRepository(orm.em), [MikroORM]),
        factory(TeamQueries, (orm: MikroORM) => new MikroOrmTeamQueries(orm.em), [MikroORM]),
        factory(UserDirectory, (users: UserSummaries) => new IdentityUserDirectory(users), [UserSummaries]),
        {
          provide: DEPS,
          inject: [TeamRepository, UserDirectory, Clock, UnitOfWork],
          useFactory: (teams: TeamRepository, users: UserDirectory, clock: Clock, uow: UnitOfWork): TeamDeps => ({ teams, users, clock, uow }),
        },
        ...[CreateTeam, JoinOrAddMember, RemoveMember].map((UseCase) => ({ provide: UseCase, inject: [DEPS], useFactory: (deps: TeamDeps) => new UseCase(deps) })),
        factory(ListTeams, (q: TeamQueries) => new ListTeams(q), [TeamQueries]),
        factory(ViewTeam, (q: TeamQueries) => new ViewTeam(q), [TeamQueries]),
        factory(TeamReader, (u: UserSummaries) => new TeamReader(u, settings), [UserSummaries]),
        factory(RepairServicePages, (w: WikiDirectory) => new CatalogRepairServicePages(w), [WikiDirectory]),
        factory(
          TeamRepairServices,
          (orm: MikroORM, teams: TeamRepository, pages: RepairServicePages, uow: UnitOfWork) => new TeamRepairServices({ teams, lists: new MikroOrmRepairServiceLists(orm.em), pages, uow }),
          [MikroORM, TeamRepository, RepairServicePages, UnitOfWork],
        ),
      ],
      exports: [CreateTeam, JoinOrAddMember],
    };
  }
}
