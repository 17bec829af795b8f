import type { EntityManager } from '@mikro-orm/postgresql';
import { ViewTally } from '@rc/shared-kernel';

/**
 * A ViewTally that adds a flush's counts with one statement: `sql` takes the counts as a JSON
 * array of `[id, n]` pairs (its one `?`) and answers `{id, views}` rows, the totals now stored (views as
 * text: a bigint). Each context gives the statement for its own table.
 */
export class StatementViewTally extends ViewTally {
  constructor(
    private readonly em: EntityManager,
    private readonly sql: string,
  ) {
    super();
  }

  async add(counts: ReadonlyMap<number, number>): Promise<ReadonlyMap<number, number>> {
    if (!counts.size) return new Map();
    // A context of its own: flushes run in the background, outside any request.
    const rows = await this.em.fork().getConnection().execute<{ id: number; views: string }[]>(this.sql, [JSON.stringify([...counts])]);
    return new Map(rows.map((r) => [r.id, Number(r.views)]));
  }
}
