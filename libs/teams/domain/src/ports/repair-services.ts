import type { TeamId } from '../model/team.js';

/** Where a team's repair services are kept. */
export abstract class RepairServiceLists {
  /** The team's wiki ids, in order. */
  abstract of(teamId: TeamId): Promise<number[]>;
  /** Replaces the team's list (inside the unit of work that locked the team). */
  abstract replace(teamId: TeamId, wikiIds: readonly number[]): Promise<void>;
}

/** Which wiki pages exist (the catalog's, asked through its published directory). */
export abstract class RepairServicePages {
  /** The live pages among `ids`. */
  abstract existing(ids: readonly number[]): Promise<Set<number>>;
}
