/**
 * The teams as the guides context needs them: who belongs to which live team, and whether a team
 * exists. The teams context answers it; the app binds the two.
 */
export abstract class TeamDirectory {
  /** The live teams `userId` belongs to, ids increasing. */
  abstract teamIdsOf(userId: number): Promise<number[]>;
  /** Whether `teamId` names a live team. */
  abstract exists(teamId: number): Promise<boolean>;
}
