/**
 * Team objects (reference §3.14) as the teams context shows them, for a guide's teams: the guides
 * context declares what it needs, the app binds it to the teams context's queries and presenter.
 */
export abstract class GuideTeamBodies {
  /** The live teams among `teamIds`, in a constant number of queries, ordered by team id. */
  abstract of(teamIds: readonly number[]): Promise<unknown[]>;
}
