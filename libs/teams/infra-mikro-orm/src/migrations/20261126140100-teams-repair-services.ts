import { Migration } from '@mikro-orm/migrations';

/**
 * A team's repair services: wiki pages in the team's order. Pages are the catalog's, referred to
 * by id only (no foreign key across contexts); reads leave out pages deleted since.
 */
export class TeamsRepairServices extends Migration {
  override name = '20261126140100-teams-repair-services';

  up(): void {
    this.addSql(`
      CREATE TABLE team_repair_services (
        team_id integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        wiki_id integer NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (team_id, wiki_id)
      );
    `);
  }
}
