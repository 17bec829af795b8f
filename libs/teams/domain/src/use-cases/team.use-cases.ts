import type { Clock, Page, UnitOfWork } from '@rc/shared-kernel';
import { TeamNotFoundError, TeamUserNotFoundError } from '../teams.errors.js';
import { Team, type TeamActor, type TeamId, type TeamInput } from '../model/team.js';
import type { TeamRepository } from '../ports/team.repository.js';
import type { TeamListFilter, TeamQueries, TeamView } from '../ports/team-queries.js';
import type { UserDirectory } from '../ports/user-directory.js';

export interface TeamDeps {
  readonly teams: TeamRepository;
  readonly users: UserDirectory;
  readonly clock: Clock;
  readonly uow: UnitOfWork;
}

/** The live team, locked for the rest of the unit of work. */
async function lockLive(teams: TeamRepository, teamId: TeamId): Promise<Team> {
  const team = await teams.findForUpdate(teamId);
  if (!team || team.isDeleted) throw new TeamNotFoundError();
  return team;
}

/** Any signed-in user creates a team and becomes its owner and first member. */
export class CreateTeam {
  constructor(private readonly deps: TeamDeps) {}

  async execute(input: { actor: TeamActor; fields: TeamInput }): Promise<Team> {
    return this.deps.uow.run(async () => {
      const team = Team.create(await this.deps.teams.nextId(), input.actor, input.fields, this.deps.clock.now());
      await this.deps.teams.save(team);
      return team;
    });
  }
}

/**
 * Makes a user a member: the actor joining by themself (with the join code when the team has
 * one), or the owner or an Admin adding someone. Already a member: nothing changes. Answers the
 * team as it now is.
 */
export class JoinOrAddMember {
  constructor(private readonly deps: TeamDeps) {}

  async execute(input: { actor: TeamActor; teamId: TeamId; userId: number; joinCode?: string }): Promise<Team> {
    return this.deps.uow.run(async () => {
      const team = await lockLive(this.deps.teams, input.teamId);
      team.assertMayAdd(input.actor, input.userId, input.joinCode);
      if (!team.hasMember(input.userId) && !(await this.deps.users.exists(input.userId))) throw new TeamUserNotFoundError();
      if (team.join(input.actor, input.userId, input.joinCode, this.deps.clock.now())) await this.deps.teams.save(team);
      return team;
    });
  }
}

/**
 * Ends a membership: the member themself, the owner or an Admin. The owner leaving promotes the
 * earliest remaining member; the last member leaving deletes the team. Answers the team as it now
 * is (deleted, without members, when it was emptied).
 */
export class RemoveMember {
  constructor(private readonly deps: TeamDeps) {}

  async execute(input: { actor: TeamActor; teamId: TeamId; userId: number }): Promise<Team> {
    return this.deps.uow.run(async () => {
      const team = await lockLive(this.deps.teams, input.teamId);
      team.remove(input.actor, input.userId, this.deps.clock.now());
      await this.deps.teams.save(team);
      return team;
    });
  }
}

/** Live teams by id, paged; `newMemberSince` keeps teams with a member who joined since then. */
export class ListTeams {
  constructor(private readonly queries: TeamQueries) {}

  execute(input: { filter: TeamListFilter; page: Page }): Promise<TeamView[]> {
    return this.queries.list(input.filter, input.page);
  }
}

/** One live team with its member ids (increasing); unknown or deleted: not found. */
export class ViewTeam {
  constructor(private readonly queries: TeamQueries) {}

  async execute(teamId: TeamId): Promise<TeamView> {
    const team = await this.queries.find(teamId);
    if (!team) throw new TeamNotFoundError();
    return team;
  }
}
