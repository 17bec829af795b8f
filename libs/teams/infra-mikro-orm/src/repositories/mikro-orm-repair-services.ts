import type { EntityManager } from '@mikro-orm/postgresql';
import { RepairServiceLists, type TeamId } from '@rc/teams-domain';

/** A team's repair services as rows `(team, wiki, position)`; a change rewrites the team's rows. */
export class MikroOrmRepairServiceLists extends RepairServiceLists {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async of(teamId: TeamId): Promise<number[]> {
    return (await this.em.execute<{ wiki_id: number }[]>('SELECT wiki_id FROM team_repair_services WHERE team_id = ? ORDER BY position', [teamId])).map((r) => r.wiki_id);
  }

  async replace(teamId: TeamId, wikiIds: readonly number[]): Promise<void> {
    await this.em.execute('DELETE FROM team_repair_services WHERE team_id = ?', [teamId]);
    if (!wikiIds.length) return;
    // The list travels as one JSON parameter (an array parameter would be expanded into a list).
    await this.em.execute(
      `INSERT INTO team_repair_services (team_id, wiki_id, position)
       SELECT ?, w.id::int, w.ord::int FROM jsonb_array_elements_text(?::jsonb) WITH ORDINALITY AS w(id, ord)`,
      [teamId, JSON.stringify(wikiIds)],
    );
  }
}
