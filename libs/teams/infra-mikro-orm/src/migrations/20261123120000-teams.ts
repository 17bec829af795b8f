import { Migration } from '@mikro-orm/migrations';

/**
 * The teams context's tables. Users are referred to by id only (no foreign keys across contexts).
 * A live team's owner must be one of its members: a deferred foreign key from the team to its
 * owner's membership checks it at every commit.
 */
export class TeamsInitial extends Migration {
  override name = '20261123120000-teams';

  up(): void {
    this.addSql(`
      CREATE SEQUENCE teams_id_seq AS integer;

      CREATE TABLE teams (
        id integer PRIMARY KEY,
        name varchar(255) NOT NULL,
        description text NOT NULL,
        owner_id integer NULL,
        join_code varchar(64) NULL,
        created_at timestamptz NOT NULL,
        deleted_at timestamptz NULL,
        -- A live team has an owner; a deleted (emptied) one has none.
        CONSTRAINT teams_owner_while_live CHECK ((deleted_at IS NULL) = (owner_id IS NOT NULL))
      );
      ALTER SEQUENCE teams_id_seq OWNED BY teams.id;
      CREATE INDEX teams_live_idx ON teams (id) WHERE deleted_at IS NULL;

      -- One membership per user and team; the primary key also serves team -> members (by user id).
      CREATE TABLE team_members (
        team_id integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        user_id integer NOT NULL,
        joined_at timestamptz NOT NULL,
        PRIMARY KEY (team_id, user_id)
      );
      -- user -> teams (user standings, UserSummary.teams).
      CREATE INDEX team_members_user_idx ON team_members (user_id, team_id);
      -- newMemberSince: the teams someone joined since a time.
      CREATE INDEX team_members_joined_idx ON team_members (joined_at, team_id);

      ALTER TABLE teams ADD CONSTRAINT teams_owner_is_member
        FOREIGN KEY (id, owner_id) REFERENCES team_members (team_id, user_id) DEFERRABLE INITIALLY DEFERRED;
    `);
  }
}
