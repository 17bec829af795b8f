import { TeamDirectory } from '../ports/team-directory.js';

/** Live teams and their members, given up front (user id → team ids). */
export class InMemoryTeamDirectory extends TeamDirectory {
  /** How many times a user's teams were looked up. */
  lookups = 0;

  constructor(private readonly members: Record<number, readonly number[]> = {}) {
    super();
  }

  async teamIdsOf(userId: number): Promise<number[]> {
    this.lookups++;
    return [...(this.members[userId] ?? [])].sort((a, b) => a - b);
  }

  async exists(teamId: number): Promise<boolean> {
    return Object.values(this.members).some((ids) => ids.includes(teamId));
  }
}
