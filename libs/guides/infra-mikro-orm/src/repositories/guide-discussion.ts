import type { EntityManager } from '@mikro-orm/postgresql';
import { intArrayLiteral, PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';
import { guideEditorsSql } from './sql.js';

/**
 * Marks that the comments on a guide (or on its steps) changed, inside the unit of work that
 * changed them: a new discussion stamp changes the guide's version (and its dependents'), so every
 * instance drops the bodies it keeps of it (the versions channel announces it on commit). `?` the
 * guide id.
 */
export const GUIDE_DISCUSSION_CHANGED_SQL = `UPDATE guides SET discussion_seq = nextval('guide_discussion_seq') WHERE id = ?`;

/** The guide a step belongs to: `?` the step id; one row (`guide_id`) or none. */
export const STEP_GUIDE_SQL = 'SELECT guide_id FROM guide_steps WHERE id = ?';

/** A live guide and who may see it (see {@link guidesVisibility}). */
export interface GuideVisibilityRow {
  readonly id: number;
  readonly is_public: boolean;
  readonly author_id: number;
  readonly collaborator_ids: number[];
  readonly team_ids: number[];
}

const EDITORS = guideEditorsSql('g');
const GUIDES_VISIBILITY = new PreparedStatement(`SELECT g.id, g.is_public, g.author_id,
    CASE WHEN g.is_public THEN '{}'::int[] ELSE ${EDITORS.collaboratorIds} END AS collaborator_ids,
    CASE WHEN g.is_public THEN '{}'::int[] ELSE ${EDITORS.teamIds} END AS team_ids
  FROM guides g WHERE g.id = ANY(?::int[]) AND g.deleted_at IS NULL`);

/**
 * Who may see each of some live guides, in one prepared statement: whether it is public, its
 * author and, for a private guide, who else may edit (and so see) it (ids increasing; empty for a
 * public guide, which anyone sees). A deleted guide has no row. Nothing else of the guide is read
 * (its steps, its texts).
 */
export async function guidesVisibility(em: EntityManager, guideIds: readonly number[]): Promise<GuideVisibilityRow[]> {
  return guideIds.length ? queryPrepared<GuideVisibilityRow>(em, GUIDES_VISIBILITY, [intArrayLiteral(guideIds)]) : [];
}
