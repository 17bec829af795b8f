import type { Page } from '@rc/shared-kernel';
import { Team, type Membership, type TeamId, type TeamState } from '../model/team.js';
import { TeamQueries, type TeamListFilter, type TeamView } from '../ports/team-queries.js';
import { TeamRepository } from '../ports/team.repository.js';
import { UserDirectory } from '../ports/user-directory.js';

interface StoredTeam {
  state: TeamState;
  members: Membership[];
}

/** Teams held in memory, shared by the fake repository and queries below. */
export class InMemoryTeamStore {
  readonly teams = new Map<number, StoredTeam>();
  private lastId = 0;

  nextId(): TeamId {
    return ++this.lastId as TeamId;
  }

  live(): StoredTeam[] {
    return [...this.teams.values()].filter((t) => t.state.deletedAt === null);
  }
}

function viewOf(stored: StoredTeam): TeamView {
  const { id, name, description, ownerId } = stored.state;
  const joined = stored.members.map((m) => m.joinedAt.getTime());
  return {
    teamId: id,
    name,
    description,
    ownerId: ownerId!,
    memberIds: stored.members.map((m) => m.userId).sort((a, b) => a - b),
    newMemberSince: new Date(Math.max(...joined)),
  };
}

/** Loads copies, so a change reaches the store only through `save` (as with the database). */
export class InMemoryTeamRepository extends TeamRepository {
  constructor(readonly store: InMemoryTeamStore = new InMemoryTeamStore()) {
    super();
  }

  async nextId(): Promise<TeamId> {
    return this.store.nextId();
  }

  async findForUpdate(id: TeamId): Promise<Team | null> {
    const stored = this.store.teams.get(id);
    return stored ? Team.restore({ ...stored.state }, stored.members.map((m) => ({ ...m }))) : null;
  }

  async save(team: Team): Promise<void> {
    const stored = this.store.teams.get(team.id);
    if (team.isNew && stored) throw new Error(`team ${team.id} exists`);
    if (!team.isNew && !stored) throw new Error(`team ${team.id} was never stored`);
    const target: StoredTeam = stored ?? { state: { ...team.state }, members: [] };
    if (team.teamChanged) target.state = { ...team.state };
    target.members = target.members.filter((m) => !team.left.includes(m.userId));
    for (const membership of team.joined) {
      if (target.members.some((m) => m.userId === membership.userId)) throw new Error(`user ${membership.userId} is already a member of team ${team.id}`);
      target.members.push({ ...membership });
    }
    this.store.teams.set(team.id, target);
    team.markStored();
  }
}

export class InMemoryTeamQueries extends TeamQueries {
  constructor(readonly store: InMemoryTeamStore) {
    super();
  }

  async list(filter: TeamListFilter, page: Page): Promise<TeamView[]> {
    const since = filter.newMemberSince?.getTime();
    return this.store
      .live()
      .filter((t) => since === undefined || t.members.some((m) => m.joinedAt.getTime() >= since))
      .sort((a, b) => (filter.order === 'ASC' ? a.state.id - b.state.id : b.state.id - a.state.id))
      .slice(page.offset, page.offset + page.limit)
      .map(viewOf);
  }

  async find(id: TeamId): Promise<TeamView | null> {
    const stored = this.store.teams.get(id);
    return stored && stored.state.deletedAt === null ? viewOf(stored) : null;
  }

  async teamIdsOfUsers(userIds: readonly number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    for (const team of [...this.store.live()].sort((a, b) => a.state.id - b.state.id)) {
      for (const m of team.members) {
        if (userIds.includes(m.userId)) out.set(m.userId, [...(out.get(m.userId) ?? []), team.state.id]);
      }
    }
    return out;
  }
}

/** The active accounts, by id. */
export class InMemoryUserDirectory extends UserDirectory {
  constructor(readonly ids: Set<number> = new Set()) {
    super();
  }

  async exists(userId: number): Promise<boolean> {
    return this.ids.has(userId);
  }
}
