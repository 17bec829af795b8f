import { FixedClock, ImmediateUnitOfWork } from '@rc/shared-kernel/testing';
import type { Team, TeamActor, TeamId, TeamInput } from '../model/team.js';
import { CreateTeam, JoinOrAddMember, ListTeams, RemoveMember, ViewTeam, type TeamDeps } from '../use-cases/team.use-cases.js';
import { InMemoryTeamQueries, InMemoryTeamRepository, InMemoryTeamStore, InMemoryUserDirectory } from './in-memory-teams.js';

/** Ordinary users and an Admin; all of them exist in the test bed's user directory. */
export const owner: TeamActor = { userId: 1, isAdmin: false };
export const alice: TeamActor = { userId: 2, isAdmin: false };
export const bob: TeamActor = { userId: 3, isAdmin: false };
export const carol: TeamActor = { userId: 4, isAdmin: false };
export const admin: TeamActor = { userId: 99, isAdmin: true };

export interface TeamsTestBed {
  readonly clock: FixedClock;
  readonly store: InMemoryTeamStore;
  readonly users: InMemoryUserDirectory;
  readonly deps: TeamDeps;
  readonly queries: InMemoryTeamQueries;
  createTeam(actor?: TeamActor, fields?: TeamInput): Promise<Team>;
  join(actor: TeamActor, teamId: TeamId, userId?: number, joinCode?: string): Promise<Team>;
  remove(actor: TeamActor, teamId: TeamId, userId?: number): Promise<Team>;
  readonly list: ListTeams;
  readonly view: ViewTeam;
}

/** The teams use cases over in-memory fakes, with a clock that moves only when told to. */
export function teamsTestBed(now: Date | string = '2026-01-01T00:00:00Z'): TeamsTestBed {
  const clock = new FixedClock(now);
  const store = new InMemoryTeamStore();
  const users = new InMemoryUserDirectory(new Set([owner, alice, bob, carol, admin].map((u) => u.userId)));
  const deps: TeamDeps = { teams: new InMemoryTeamRepository(store), users, clock, uow: new ImmediateUnitOfWork() };
  const queries = new InMemoryTeamQueries(store);
  return {
    clock,
    store,
    users,
    deps,
    queries,
    createTeam: (actor = owner, fields = { name: 'Fixers' }) => new CreateTeam(deps).execute({ actor, fields }),
    join: (actor, teamId, userId = actor.userId, joinCode) => new JoinOrAddMember(deps).execute({ actor, teamId, userId, joinCode }),
    remove: (actor, teamId, userId = actor.userId) => new RemoveMember(deps).execute({ actor, teamId, userId }),
    list: new ListTeams(queries),
    view: new ViewTeam(queries),
  };
}
