import type { UnitOfWork } from '@rc/shared-kernel';
import { InvalidTeamError, TeamManagerRequiredError, TeamNotFoundError } from '../teams.errors.js';
import { RepairServices } from '../model/repair-services.js';
import type { TeamActor, TeamId } from '../model/team.js';
import type { TeamRepository } from '../ports/team.repository.js';
import type { RepairServiceLists, RepairServicePages } from '../ports/repair-services.js';

export interface RepairServiceDeps {
  readonly teams: TeamRepository;
  readonly lists: RepairServiceLists;
  readonly pages: RepairServicePages;
  readonly uow: UnitOfWork;
}

export type RepairServiceChange = { add: unknown } | { reorder: unknown } | { remove: number };

/**
 * A team's repair services: its members and Admins read them, its owner and Admins change them.
 * Each change locks the team, so concurrent changes apply one after the other; pages deleted
 * since are left out of what a change starts from (and so of what it stores).
 */
export class TeamRepairServices {
  constructor(private readonly deps: RepairServiceDeps) {}

  async list(actor: TeamActor, teamId: TeamId): Promise<number[]> {
    return this.deps.uow.run(async () => {
      const team = await this.deps.teams.findForUpdate(teamId);
      if (!team || team.isDeleted) throw new TeamNotFoundError();
      if (!actor.isAdmin && !team.hasMember(actor.userId)) throw new TeamManagerRequiredError('Only the team members or an Admin may see its repair services');
      return this.deps.lists.of(teamId);
    });
  }

  async change(actor: TeamActor, teamId: TeamId, change: RepairServiceChange): Promise<number[]> {
    return this.deps.uow.run(async () => {
      const team = await this.deps.teams.findForUpdate(teamId);
      if (!team || team.isDeleted) throw new TeamNotFoundError();
      if (!team.mayManage(actor)) throw new TeamManagerRequiredError('Only the team owner or an Admin may change its repair services');
      // Pages deleted since are dropped: the change works on the list the team sees.
      const stored = await this.deps.lists.of(teamId);
      const live = stored.length ? await this.deps.pages.existing(stored) : new Set<number>();
      const before = new RepairServices(stored.filter((id) => live.has(id)));
      const after = 'add' in change ? before.add(change.add) : 'reorder' in change ? before.reorder(change.reorder) : before.remove(change.remove);
      const added = after.addedSince(before);
      if (added.length) {
        const existing = await this.deps.pages.existing(added);
        const missing = added.find((id) => !existing.has(id));
        if (missing !== undefined) throw new InvalidTeamError([{ field: 'wikiid', message: `no wiki page ${missing}` }]);
      }
      if (after.wikiIds.join() !== stored.join()) await this.deps.lists.replace(teamId, after.wikiIds);
      return [...after.wikiIds];
    });
  }
}
