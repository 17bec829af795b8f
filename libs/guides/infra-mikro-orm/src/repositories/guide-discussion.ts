/**
 * Marks that the comments on a guide (or on its steps) changed, inside the unit of work that
 * changed them: a new discussion stamp changes the guide's version (and its dependents'), so every
 * instance drops the bodies it keeps of it (the versions channel announces it on commit). `?` the
 * guide id.
 */
export const GUIDE_DISCUSSION_CHANGED_SQL = `UPDATE guides SET discussion_seq = nextval('guide_discussion_seq') WHERE id = ?`;

/** The guide a step belongs to: `?` the step id; one row (`guide_id`) or none. */
export const STEP_GUIDE_SQL = 'SELECT guide_id FROM guide_steps WHERE id = ?';
