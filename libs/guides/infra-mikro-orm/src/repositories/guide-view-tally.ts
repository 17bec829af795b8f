import type { EntityManager } from '@mikro-orm/postgresql';
import { StatementViewTally } from '@rc/shared-infra-mikro-orm';

/**
 * Adds counted views to `guide_stats` in one statement per flush (never one per read): each guide
 * gets `views = views + n`, in id order (two instances flushing the same guides lock their rows
 * in the same order), and answers the totals now stored. Ids of guides gone meanwhile are skipped.
 */
export const GUIDE_VIEWS_ADD_SQL = `INSERT INTO guide_stats AS s (guide_id, views)
  SELECT v.id, v.n FROM (SELECT (e->>0)::int AS id, (e->>1)::bigint AS n FROM jsonb_array_elements(?::jsonb) e) v
   WHERE EXISTS (SELECT 1 FROM guides g WHERE g.id = v.id) ORDER BY v.id
  ON CONFLICT (guide_id) DO UPDATE SET views = s.views + excluded.views
  RETURNING s.guide_id AS id, s.views::text AS views`;

export class MikroOrmGuideViewTally extends StatementViewTally {
  constructor(em: EntityManager) {
    super(em, GUIDE_VIEWS_ADD_SQL);
  }
}
