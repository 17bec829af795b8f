import type { Page } from '@rc/shared-kernel';
import type { Team, TeamId } from '../model/team.js';

/** A live team as reads show it: a read model, not the aggregate. */
export interface TeamView {
  readonly teamId: TeamId;
  readonly name: string;
  readonly description: string;
  readonly ownerId: number;
  /** Member ids in increasing order. */
  readonly memberIds: readonly number[];
  /** When the newest member joined. */
  readonly newMemberSince: Date;
}

export interface TeamListFilter {
  readonly order: 'ASC' | 'DESC';
  /** Only teams with a (current) member who joined at or after this time. */
  readonly newMemberSince?: Date;
}

/** Reads for lists and pages; each method is one query, whatever the number of teams or users. */
export abstract class TeamQueries {
  /** Live teams by id. */
  abstract list(filter: TeamListFilter, page: Page): Promise<TeamView[]>;
  /** A live team, or `null`. */
  abstract find(id: TeamId): Promise<TeamView | null>;
  /** The live teams each of these users belongs to (ids increasing); users in none are left out. */
  abstract teamIdsOfUsers(userIds: readonly number[]): Promise<Map<number, number[]>>;
}

/** The read model of a live team held in memory (after a write). */
export function teamViewOf(team: Team): TeamView {
  const { id, name, description, ownerId } = team.state;
  return { teamId: id, name, description, ownerId: ownerId!, memberIds: team.memberIds, newMemberSince: team.newMemberSince! };
}
