import { isId, type Violation } from '@rc/shared-kernel';
import { InvalidTeamError, RepairServiceNotFoundError } from '../teams.errors.js';

export const MAX_REPAIR_SERVICES = 100;

/**
 * A team's repair services: wiki pages (by id) in the team's order, each once. The methods read a
 * write's values and answer the new list (the caller checks that added pages exist).
 */
export class RepairServices {
  constructor(readonly wikiIds: readonly number[]) {}

  /** `POST {wikiid}`: appended; one already listed stays where it is. */
  add(raw: unknown): RepairServices {
    if (!isId(raw)) throw new InvalidTeamError([{ field: 'wikiid', message: 'wikiid must be a wiki page id' }]);
    if (this.wikiIds.includes(raw)) return this;
    if (this.wikiIds.length >= MAX_REPAIR_SERVICES) throw new InvalidTeamError([{ field: 'wikiid', message: `a team lists at most ${MAX_REPAIR_SERVICES} repair services` }]);
    return new RepairServices([...this.wikiIds, raw]);
  }

  /** `PUT {wikiids}`: a new order of the same pages, each once. */
  reorder(raw: unknown): RepairServices {
    const violations: Violation[] = [];
    if (!Array.isArray(raw) || !raw.every(isId)) violations.push({ field: 'wikiids', message: 'wikiids must be a list of wiki page ids' });
    else if (raw.length !== this.wikiIds.length || new Set(raw).size !== raw.length || !raw.every((id) => this.wikiIds.includes(id))) {
      violations.push({ field: 'wikiids', message: "wikiids must list every one of the team's repair services exactly once" });
    }
    if (violations.length) throw new InvalidTeamError(violations);
    return new RepairServices(raw as number[]);
  }

  /** `DELETE …/{wikiid}`: a page the team does not list is not found. */
  remove(wikiId: number): RepairServices {
    if (!this.wikiIds.includes(wikiId)) throw new RepairServiceNotFoundError();
    return new RepairServices(this.wikiIds.filter((id) => id !== wikiId));
  }

  /** Pages in `this` that `before` did not have. */
  addedSince(before: RepairServices): number[] {
    return this.wikiIds.filter((id) => !before.wikiIds.includes(id));
  }
}
