/**
 * What a public guide's body is built from, in one indexed lookup: the guide's revision id and
 * the highest of its prerequisites' (every save takes a new id from one increasing sequence, so
 * any change to the guide or a prerequisite changes it). No row: not public, deleted or unknown.
 * Also returns the prerequisite ids (a change to one of them changes the version). One `$1`
 * parameter, for a plain `pg` client to prepare.
 */
export const PUBLIC_GUIDE_VERSION_SQL = `SELECT g.revisionid || '.' || (SELECT coalesce(max(p.revisionid), 0) FROM guides p WHERE p.id = ANY (g.prerequisites)) AS version,
  g.prerequisites FROM guides g WHERE g.id = $1 AND g.is_public AND g.deleted_at IS NULL`;
