import type { Team, TeamId } from '../model/team.js';

export abstract class TeamRepository {
  /** A new id from the teams' sequence. */
  abstract nextId(): Promise<TeamId>;
  /**
   * The team (live or deleted: callers decide) with its members, locked until the surrounding
   * unit of work ends: joins and leaves of one team apply one after the other.
   */
  abstract findForUpdate(id: TeamId): Promise<Team | null>;
  /** Stores a new team, or the changes recorded since loading (memberships, owner, deletion). */
  abstract save(team: Team): Promise<void>;
}
