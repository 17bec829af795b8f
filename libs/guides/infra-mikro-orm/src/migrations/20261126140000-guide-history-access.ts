import { Migration } from '@mikro-orm/migrations';

/**
 * A revision's summary of change (shown in the history), and who may edit a guide besides its
 * author: its collaborators (users) and its teams. Users and teams belong to other contexts: they
 * are kept by id, without foreign keys.
 */
export class GuideHistoryAccess extends Migration {
  override name = '20261126140000-guide-history-access';

  up(): void {
    this.addSql(`
      ALTER TABLE guide_revisions ADD COLUMN summary_of_change varchar(255) NULL;
      CREATE TABLE guide_collaborators (
        guide_id integer NOT NULL REFERENCES guides (id) ON DELETE CASCADE,
        user_id integer NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (guide_id, user_id)
      );
      CREATE TABLE guide_teams (
        guide_id integer NOT NULL REFERENCES guides (id) ON DELETE CASCADE,
        team_id integer NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (guide_id, team_id)
      );
    `);
  }

  override down(): void {
    this.addSql('DROP TABLE guide_teams; DROP TABLE guide_collaborators; ALTER TABLE guide_revisions DROP COLUMN summary_of_change;');
  }
}
