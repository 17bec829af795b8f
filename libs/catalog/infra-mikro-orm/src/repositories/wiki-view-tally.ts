import type { EntityManager } from '@mikro-orm/postgresql';
import { ViewTally } from '@rc/shared-kernel';

/**
 * Adds counted views to `wiki_page_stats` in one statement per flush (never one per read): each
 * page gets `views = views + n` (a row made on its first view), in id order, and answers the totals
 * now stored. Ids of pages gone meanwhile are skipped.
 */
export const WIKI_VIEWS_ADD_SQL = `INSERT INTO wiki_page_stats AS s (wiki_id, views)
  SELECT v.id, v.n FROM (SELECT (e->>0)::int AS id, (e->>1)::bigint AS n FROM jsonb_array_elements(?::jsonb) e) v
   WHERE EXISTS (SELECT 1 FROM wiki_pages w WHERE w.id = v.id) ORDER BY v.id
  ON CONFLICT (wiki_id) DO UPDATE SET views = s.views + excluded.views
  RETURNING s.wiki_id AS id, s.views::text AS views`;

export class MikroOrmWikiViewTally extends ViewTally {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(counts: ReadonlyMap<number, number>): Promise<ReadonlyMap<number, number>> {
    if (!counts.size) return new Map();
    const rows = await this.em.fork().getConnection().execute<{ id: number; views: string }[]>(WIKI_VIEWS_ADD_SQL, [JSON.stringify([...counts])]);
    return new Map(rows.map((r) => [r.id, Number(r.views)]));
  }
}
