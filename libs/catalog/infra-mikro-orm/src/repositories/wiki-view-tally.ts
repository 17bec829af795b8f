import type { EntityManager } from '@mikro-orm/postgresql';
import { StatementViewTally } from '@rc/shared-infra-mikro-orm';

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

export class MikroOrmWikiViewTally extends StatementViewTally {
  constructor(em: EntityManager) {
    super(em, WIKI_VIEWS_ADD_SQL);
  }
}
