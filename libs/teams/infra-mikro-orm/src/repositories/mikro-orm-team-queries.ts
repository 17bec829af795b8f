import type { EntityManager } from '@mikro-orm/postgresql';
import { intArrayLiteral, PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';
import type { Page } from '@rc/shared-kernel';
import { TeamQueries, type TeamId, type TeamListFilter, type TeamView } from '@rc/teams-domain';
import { intArray, toDate } from './sql.js';

interface TeamViewRow {
  id: number;
  name: string;
  description: string;
  owner_id: number;
  member_ids: number[];
  newest: Date | string;
}

/** The members of each selected team, aggregated next to it (one query for the page). */
const WITH_MEMBERS = `SELECT t.id, t.name, t.description, t.owner_id, m.member_ids, m.newest
  FROM selected t
  CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(user_id ORDER BY user_id), '{}') AS member_ids, max(joined_at) AS newest
      FROM team_members WHERE team_id = t.id
  ) m`;

const viewOf = (row: TeamViewRow): TeamView => ({
  teamId: row.id as TeamId,
  name: row.name,
  description: row.description,
  ownerId: row.owner_id,
  memberIds: row.member_ids,
  newMemberSince: toDate(row.newest),
});

/** Reads of live teams, each one SQL statement. */
/** The teams of the users a body or a page shows (their standing): on every first read of one. */
const TEAM_IDS_OF_USERS = new PreparedStatement(
  `SELECT m.user_id, array_agg(m.team_id ORDER BY m.team_id) AS team_ids
     FROM team_members m JOIN teams t ON t.id = m.team_id AND t.deleted_at IS NULL
    WHERE m.user_id = ANY(?::int[])
    GROUP BY m.user_id`,
);

export class MikroOrmTeamQueries extends TeamQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(filter: TeamListFilter, page: Page): Promise<TeamView[]> {
    const direction = filter.order === 'DESC' ? 'DESC' : 'ASC';
    const since = filter.newMemberSince ? 'AND id IN (SELECT team_id FROM team_members WHERE joined_at >= ?)' : '';
    const params = [...(filter.newMemberSince ? [filter.newMemberSince] : []), page.limit, page.offset];
    const rows = await this.em.execute<TeamViewRow[]>(
      `WITH selected AS (
         SELECT id, name, description, owner_id FROM teams WHERE deleted_at IS NULL ${since} ORDER BY id ${direction} LIMIT ? OFFSET ?
       ) ${WITH_MEMBERS} ORDER BY t.id ${direction}`,
      params,
    );
    return rows.map(viewOf);
  }

  async find(id: TeamId): Promise<TeamView | null> {
    const [row] = await this.em.execute<TeamViewRow[]>(
      `WITH selected AS (SELECT id, name, description, owner_id FROM teams WHERE id = ? AND deleted_at IS NULL) ${WITH_MEMBERS}`,
      [id],
    );
    return row ? viewOf(row) : null;
  }

  /** The live teams among `ids`, by id (one query). */
  async findMany(ids: readonly number[]): Promise<TeamView[]> {
    if (!ids.length) return [];
    const array = intArray(ids);
    const rows = await this.em.execute<TeamViewRow[]>(
      `WITH selected AS (SELECT id, name, description, owner_id FROM teams WHERE id = ANY(${array.sql}) AND deleted_at IS NULL) ${WITH_MEMBERS} ORDER BY t.id`,
      [array.param],
    );
    return rows.map(viewOf);
  }

  async teamIdsOfUsers(userIds: readonly number[]): Promise<Map<number, number[]>> {
    if (!userIds.length) return new Map();
    // The ids as one int[] parameter: the planner counts them (a login's user object asks for one
    // user) and walks team_members_user_idx, looking each team up by its key.
    const rows = await queryPrepared<{ user_id: number; team_ids: number[] }>(this.em, TEAM_IDS_OF_USERS, [intArrayLiteral(userIds)]);
    return new Map(rows.map((r) => [r.user_id, r.team_ids]));
  }
}
