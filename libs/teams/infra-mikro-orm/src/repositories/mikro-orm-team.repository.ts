import type { EntityManager } from '@mikro-orm/postgresql';
import { Team, TeamRepository, type TeamId } from '@rc/teams-domain';
import { intArray, toDate } from './sql.js';

interface TeamSqlRow {
  id: number;
  name: string;
  description: string;
  owner_id: number | null;
  join_code: string | null;
  created_at: Date | string;
  deleted_at: Date | string | null;
}

/**
 * Teams and their memberships. Writes happen inside a unit of work on a team loaded with
 * `findForUpdate`, whose row lock makes concurrent joins and leaves of one team apply one after
 * the other; `save` writes only what changed (the team row, memberships added and ended).
 */
export class MikroOrmTeamRepository extends TeamRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async nextId(): Promise<TeamId> {
    const [row] = await this.em.execute<{ id: number }[]>(`SELECT nextval('teams_id_seq')::int AS id`);
    return row!.id as TeamId;
  }

  async findForUpdate(id: TeamId): Promise<Team | null> {
    const [row] = await this.em.execute<TeamSqlRow[]>(
      'SELECT id, name, description, owner_id, join_code, created_at, deleted_at FROM teams WHERE id = ? FOR UPDATE',
      [id],
    );
    if (!row) return null;
    const members = await this.em.execute<{ user_id: number; joined_at: Date | string }[]>('SELECT user_id, joined_at FROM team_members WHERE team_id = ?', [id]);
    return Team.restore(
      {
        id: row.id as TeamId,
        name: row.name,
        description: row.description,
        ownerId: row.owner_id,
        joinCode: row.join_code,
        createdAt: toDate(row.created_at),
        deletedAt: row.deleted_at === null ? null : toDate(row.deleted_at),
      },
      members.map((m) => ({ userId: m.user_id, joinedAt: toDate(m.joined_at) })),
    );
  }

  async save(team: Team): Promise<void> {
    if (!team.hasChanges) return;
    const s = team.state;
    if (team.teamChanged) {
      await this.em.execute(
        `INSERT INTO teams (id, name, description, owner_id, join_code, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET owner_id = excluded.owner_id, deleted_at = excluded.deleted_at`,
        [s.id, s.name, s.description, s.ownerId, s.joinCode, s.createdAt, s.deletedAt],
      );
    }
    if (team.left.length) {
      const left = intArray(team.left);
      await this.em.execute(`DELETE FROM team_members WHERE team_id = ? AND user_id = ANY(${left.sql})`, [s.id, left.param]);
    }
    if (team.joined.length) {
      await this.em.execute(
        `INSERT INTO team_members (team_id, user_id, joined_at)
         SELECT ?, x.user_id, x.joined_at FROM jsonb_to_recordset(?::jsonb) AS x(user_id int, joined_at timestamptz)`,
        [s.id, JSON.stringify(team.joined.map((m) => ({ user_id: m.userId, joined_at: m.joinedAt.toISOString() })))],
      );
    }
    team.markStored();
  }
}
