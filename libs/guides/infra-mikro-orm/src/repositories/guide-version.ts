import { guideEditorsSql } from './sql.js';

/**
 * What a public guide's body is built from, as an expression over its row `g`: the guide's revision
 * id and the highest of its prerequisites' (every save takes a new id from one increasing sequence,
 * so any change to the guide or a prerequisite changes it), then the same of their discussion
 * stamps (comments on the guide or its steps, see GUIDE_DISCUSSION_CHANGED_SQL), then their media
 * stamps (bumped when the files of an image they show change: see GuidesMedia), then the guide's
 * favourite and completion counts (bodies show them; views are not part of it: see
 * PublicGuideBodies), then the languages of its translations when it has some (its body lists them
 * in `available_langids`).
 */
const VERSION_OF_G = `g.revisionid || '.' || g.discussion_seq || '.' ||
  (SELECT coalesce(max(p.revisionid), 0) || '.' || coalesce(max(p.discussion_seq), 0) || 'm' || (g.media_stamp + coalesce(sum(p.media_stamp), 0)) FROM guides p WHERE p.id = ANY (g.prerequisites)) ||
  coalesce((SELECT 'c' || st.favorites_count || '.' || st.completions_count FROM guide_stats st WHERE st.guide_id = g.id), '')
  || CASE WHEN cardinality(g.langids) = 0 THEN '' ELSE 'l' || array_to_string(g.langids, '') END`;

/**
 * A public guide's version and the prerequisite ids it covers, in one indexed lookup, with the
 * guide's stored body when it was built for that version: `$1` guide id, `$2` inline, `$3` format,
 * `$4` the version whose body the caller already holds (`''`: none), whose body is then not read.
 * No row: not public, deleted or unknown; `marker` and `template` are null when no current body is
 * stored or the current version is `$4`; `views` is the guide's stored view count (text). For a
 * plain `pg` client to prepare.
 */
export const PUBLIC_GUIDE_VERSION_AND_BODY_SQL = `SELECT v.version, g.prerequisites, b.marker, b.template, (SELECT st.views::text FROM guide_stats st WHERE st.guide_id = g.id) AS views FROM guides g
  CROSS JOIN LATERAL (SELECT ${VERSION_OF_G} AS version) v
  LEFT JOIN guide_bodies b ON b.guide_id = g.id AND b.inline = $2 AND b.format = $3 AND b.version = v.version AND v.version <> $4::text
  WHERE g.id = $1 AND g.is_public AND g.deleted_at IS NULL`;

/** Who else may edit guide `g` (its collaborators and teams). */
const EDITORS = guideEditorsSql('g');

/**
 * `PUBLIC_GUIDE_VERSION_AND_BODY_SQL` for a signed-in reader, `$5` their user id: the same columns,
 * then who may edit the guide (`author_id`, `collaborator_ids`, `team_ids`), the reader's marks of
 * it (`marks`: 'favorite', 'completion') and how many of its prerequisites are not public
 * (`hidden_prerequisites`: the anonymous body leaves them out, its editors may see them). One
 * indexed statement, on the primary: what a signed-in read of a public guide needs besides the body.
 */
export const PUBLIC_GUIDE_FOR_READER_SQL = PUBLIC_GUIDE_VERSION_AND_BODY_SQL.replace(
  ' FROM guides g\n',
  `, g.author_id,
    ${EDITORS.collaboratorIds} AS collaborator_ids,
    ${EDITORS.teamIds} AS team_ids,
    ARRAY(SELECT m.kind::text FROM guide_marks m WHERE m.user_id = $5 AND m.guide_id = g.id ORDER BY m.kind) AS marks,
    (SELECT count(*) FROM guides p WHERE p.id = ANY (g.prerequisites) AND NOT (p.is_public AND p.deleted_at IS NULL))::int AS hidden_prerequisites
  FROM guides g\n`,
);

/**
 * The stored body of a guide (`guide_bodies`) when it was built for this version and format:
 * `$1` guide id, `$2` inline, `$3` version, `$4` format. One row (`marker`, `template`) or none.
 */
export const GUIDE_BODY_READ_SQL = `SELECT marker, template FROM guide_bodies WHERE guide_id = $1 AND inline = $2 AND version = $3 AND format = $4`;

/**
 * Stores guides' bodies, arrays of one element per body: `$1` guide ids, `$2` inline, `$3` versions,
 * `$4` formats, `$5` markers, `$6` templates. The last one written stands (a row of an older version
 * is rebuilt on its next read); a guide gone meanwhile (deleted for good) is skipped.
 */
export const GUIDE_BODIES_WRITE_SQL = `INSERT INTO guide_bodies (guide_id, inline, version, format, marker, template)
  SELECT b.* FROM unnest($1::int[], $2::boolean[], $3::text[], $4::text[], $5::text[], $6::text[]) AS b(guide_id, inline, version, format, marker, template)
  WHERE EXISTS (SELECT 1 FROM guides g WHERE g.id = b.guide_id)
  ON CONFLICT (guide_id, inline) DO UPDATE SET version = excluded.version, format = excluded.format, marker = excluded.marker, template = excluded.template, built_at = now()`;

/**
 * Public guides whose stored body is missing or not of their current version and this format, in
 * id order: `$1` inline, `$2` format, `$3` after this id, `$4` at most this many, of the ids whose
 * remainder by `$5` is `$6` (one part of several working side by side). Rows `id`, `version`.
 */
export const GUIDE_BODIES_OUTDATED_SQL = `SELECT g.id, ${VERSION_OF_G} AS version FROM guides g
  LEFT JOIN guide_bodies b ON b.guide_id = g.id AND b.inline = $1
  WHERE g.is_public AND g.deleted_at IS NULL AND g.id > $3 AND g.id % $5 = $6 AND (b.guide_id IS NULL OR b.format <> $2 OR b.version <> ${VERSION_OF_G})
  ORDER BY g.id LIMIT $4`;
