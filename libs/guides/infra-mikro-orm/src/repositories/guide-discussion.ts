/**
 * Marks that the comments on a guide (or on its steps) changed, inside the unit of work that
 * changed them: a new discussion stamp changes the guide's version (and its dependents'), so every
 * instance drops the bodies it keeps of it (the versions channel announces it on commit). `?` the
 * guide id.
 */
export const GUIDE_DISCUSSION_CHANGED_SQL = `UPDATE guides SET discussion_seq = nextval('guide_discussion_seq') WHERE id = ?`;

/** The guide a step belongs to: `?` the step id; one row (`guide_id`) or none. */
export const STEP_GUIDE_SQL = 'SELECT guide_id FROM guide_steps WHERE id = ?';

/**
 * Who else may edit (and so see) each of some guides, in one statement: `?` the guide ids as a JSON
 * array. Rows `id`, `collaborator_ids`, `team_ids` (ids increasing), as `findById` loads them.
 */
export const GUIDES_ACCESS_SQL = `SELECT g.id,
    ARRAY(SELECT c.user_id FROM guide_collaborators c WHERE c.guide_id = g.id ORDER BY c.user_id) AS collaborator_ids,
    ARRAY(SELECT t.team_id FROM guide_teams t WHERE t.guide_id = g.id ORDER BY t.team_id) AS team_ids
  FROM guides g WHERE g.id = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int))`;
