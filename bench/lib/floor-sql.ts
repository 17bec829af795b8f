// The floor's one statement: the full guide body of GET /api/2.0/guides/{id} (as an anonymous
// viewer sees it) built by PostgreSQL, with the key set, order and values of the API's presenter
// (libs/guides/http/src/guide.presenter.ts). It relies on what the generator writes: texts without
// markup (rendering is HTML escaping, blocks one paragraph) and titles and names of letters,
// digits and spaces (URL encoding is `+` for spaces).

const FLAGS: readonly [string, string, string][] = [
  ['GUIDE_STARRED', 'Featured Guide', 'This guide is featured.'],
  ['GUIDE_ARCHIVED', 'Archived Guide', 'This guide is archived and may be out of date.'],
  ['GUIDE_IN_PROGRESS', 'In Progress', 'This guide is a work in progress.'],
  ['GUIDE_USER_CONTRIBUTED', 'User-Contributed Guide', 'This guide was written by a member of the community.'],
  ['GUIDE_PREREQ_ONLY', 'Prerequisite Only', 'This guide is meant to be used as a prerequisite of other guides.'],
];

const IMAGE_SIZES = ['mini', 'thumbnail', '140x105', '200x150', 'standard', '440x330', 'medium', 'large', 'huge'];

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** HTML escaping, as the renderer does for text without markup. */
const escaped = (expr: string): string =>
  `replace(replace(replace(replace(replace(${expr}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')`;

/** A block of one paragraph: `<p>…</p>`, or nothing for blank text. */
const block = (expr: string): string => `CASE WHEN btrim(${expr}) = '' THEN '' ELSE '<p>' || ${escaped(`btrim(${expr})`)} || '</p>' END`;

const seconds = (expr: string): string => `coalesce(floor(extract(epoch FROM ${expr}))::bigint, 0)`;

/**
 * The Image object of an image id, as the media context shows it (NULL for none, or for an image
 * not in the library or purged): its guid, the sizes of its current version, the original.
 */
function image(idExpr: string, base: string): string {
  const stem = `${literal(`${base}/api/2.0/igi/`)} || img.guid || CASE WHEN img.version = 1 THEN '' ELSE '-' || img.version END`;
  const pairs = IMAGE_SIZES.map((size) => `${literal(size)}, CASE WHEN img_sizes.sizes ? ${literal(size)} THEN ${stem} || ${literal(`.${size}`)} END`).join(', ');
  return `(SELECT json_strip_nulls(json_build_object('id', img.id, 'guid', img.guid, ${pairs}, 'original', ${stem} || '.full'))
    FROM media_images img, LATERAL (SELECT coalesce(jsonb_object_agg(img_size.size, true), '{}'::jsonb) AS sizes FROM media_image_sizes img_size WHERE img_size.image_id = img.id AND img_size.version = img.version) img_sizes
    WHERE img.id = ${idExpr} AND img.purged_at IS NULL)`;
}

/**
 * Parts or tools as the API shows them: `url` the item's own link, else the ITEM page its name
 * resolves to (the generator's names are letters and spaces, so encoding is the spaces' `_`).
 */
function items(column: string, base: string): string {
  return `(SELECT coalesce(jsonb_agg(it || jsonb_build_object('url', coalesce(nullif(it->>'url', ''), ${literal(`${base}/Item/`)} || replace(it->>'text', ' ', '_'))) ORDER BY o), '[]'::jsonb)
    FROM jsonb_array_elements(${column}) WITH ORDINALITY AS t(it, o))`;
}

/** `timeRequiredText` of the domain: minutes below an hour, hours to one decimal above. */
function duration(secondsExpr: string): string {
  const minutes = `greatest(1, round(${secondsExpr} / 60.0))`;
  const hours = `round(${minutes} / 60.0 * 10) / 10`;
  return `CASE WHEN ${minutes} < 60 THEN ${minutes}::int || ' minute' || CASE WHEN ${minutes} = 1 THEN '' ELSE 's' END
    WHEN ${hours} = trunc(${hours}) THEN trunc(${hours})::int || ' hour' || CASE WHEN ${hours} = 1 THEN '' ELSE 's' END
    ELSE trim_scale(${hours})::text || ' hours' END`;
}

function timeRequired(min: string, max: string): string {
  const low = duration(`CASE WHEN ${min} > 0 THEN ${min} ELSE ${max} END`);
  const high = duration(`CASE WHEN ${max} > 0 THEN ${max} ELSE ${min} END`);
  return `CASE WHEN ${min} <= 0 AND ${max} <= 0 THEN 'No estimate' WHEN (${low}) = (${high}) THEN ${high} ELSE (${low}) || ' - ' || (${high}) END`;
}

const plusEncoded = (expr: string): string => `replace(${expr}, ' ', '+')`;

/** Which tables of other contexts exist: an author's reputation and teams come from them. */
export interface FloorTables {
  readonly reputationTotals: boolean;
  readonly teamMembers: boolean;
  /** The community's comments: guides and steps show their threads. */
  readonly comments: boolean;
}

function userSummary(u: string, idExpr: string, base: string, tables: FloorTables): string {
  const reputation = tables.reputationTotals ? `coalesce((SELECT points FROM reputation_totals WHERE user_id = ${u}.id), 0)` : '0';
  const teams = tables.teamMembers
    ? `coalesce((SELECT json_agg(m.team_id ORDER BY m.team_id) FROM team_members m JOIN teams t ON t.id = m.team_id AND t.deleted_at IS NULL WHERE m.user_id = ${u}.id), '[]'::json)`
    : `'[]'::json`;
  return `CASE WHEN ${u}.id IS NULL THEN json_build_object('userid', ${idExpr}, 'username', 'Deleted user', 'unique_username', NULL, 'join_date', 0, 'image', NULL, 'reputation', 0, 'url', ${literal(`${base}/User/`)} || ${idExpr}, 'teams', '[]'::json)
    ELSE json_build_object('userid', ${u}.id, 'username', ${u}.username, 'unique_username', ${u}.unique_username, 'join_date', ${seconds(`${u}.joined_at`)}, 'image', NULL, 'reputation', ${reputation},
      'url', ${literal(`${base}/User/`)} || ${u}.id || '/' || ${plusEncoded(`${u}.username`)}, 'teams', ${teams}) END`;
}

function step(s: string, guideIdExpr: string, base: string, tables: FloorTables): string {
  const lines = `(SELECT json_agg(json_build_object('text_raw', l->>'text', 'text_rendered', ${escaped(`(l->>'text')`)}, 'bullet', l->>'bullet', 'level', (l->>'level')::int,
      'lineid', nullif((l->>'lineid')::int, 0)) ORDER BY o) FROM jsonb_array_elements(${s}.lines) WITH ORDINALITY AS e(l, o))`;
  const media = `CASE ${s}.media->>'type'
      WHEN 'image' THEN json_build_object('type', 'image', 'data', (SELECT coalesce(json_agg(${image('x::int', base)} ORDER BY o), '[]'::json) FROM jsonb_array_elements_text(${s}.media->'imageIds') WITH ORDINALITY AS m(x, o)))
      WHEN 'video' THEN json_build_object('type', 'video', 'data', json_build_object('objectid', (${s}.media->>'objectId')::int))
      WHEN 'embed' THEN json_build_object('type', 'embed', 'data', json_build_object('embedid', (${s}.media->>'objectId')::int))
      ELSE json_build_object('type', 'image', 'data', '[]'::json) END`;
  return `json_build_object('stepid', ${s}.id, 'guideid', ${guideIdExpr}, 'orderby', ${s}.orderby, 'revisionid', ${s}.revisionid, 'title', ${s}.title,
    'lines', coalesce(${lines}, '[]'::json), 'media', ${media}, 'comments', ${threads('step', `${s}.id`, base, tables)})`;
}

/** `$1`: the guide id. One row with the body as text, or no row (unknown, deleted or private). */
export function floorSql(baseUrl: string, tables: FloorTables): string {
  const base = baseUrl.replace(/\/+$/, '');
  const guideUrl = (g: string) => `${literal(`${base}/Guide/`)} || ${plusEncoded(`${g}.title`)} || '/' || ${g}.id`;
  const flagDefinitions = `(VALUES ${FLAGS.map(([id, title, text]) => `(${literal(id)}, ${literal(title)}, ${literal(text)})`).join(', ')}) AS d(flagid, title, text)`;
  return `WITH g AS (SELECT * FROM guides WHERE id = $1 AND deleted_at IS NULL AND is_public),
pre AS (
  SELECT p.*, o.ord FROM g CROSS JOIN LATERAL unnest(g.prerequisites) WITH ORDINALITY AS o(pid, ord)
    JOIN guides p ON p.id = o.pid AND p.deleted_at IS NULL AND p.is_public
)
SELECT left(json_build_object(
  'guideid', g.id, 'title', g.title, 'category', g.category, 'subject', g.subject, 'type', g.type, 'summary', g.summary,
  'difficulty', g.difficulty, 'time_required', ${timeRequired('g.time_required_min', 'g.time_required_max')},
  'time_required_min', g.time_required_min, 'time_required_max', g.time_required_max,
  'introduction_raw', g.introduction, 'introduction_rendered', ${block('g.introduction')},
  'conclusion_raw', g.conclusion, 'conclusion_rendered', ${block('g.conclusion')},
  'image', ${image('g.image_id', base)},
  'steps', (SELECT coalesce(json_agg(${step('s', 'src.id', base, tables)} ORDER BY src.ord, s.orderby), '[]'::json)
            FROM (SELECT pre.id, pre.ord FROM pre UNION ALL SELECT g.id, 2147483647) AS src JOIN guide_steps s ON s.guide_id = src.id),
  'parts', ${items('g.parts', base)}, 'tools', ${items('g.tools', base)},
  'prerequisites', (SELECT coalesce(json_agg(json_build_object('dataType', 'guide', 'guideid', pre.id, 'locale', pre.locale, 'revisionid', pre.revisionid,
        'modified_date', ${seconds('pre.modified_at')},
        'prereq_modified_date', ${seconds('(SELECT max(q.modified_at) FROM guides q WHERE q.id = ANY(pre.prerequisites) AND q.is_public AND q.deleted_at IS NULL)')},
        'url', ${guideUrl('pre')}, 'type', pre.type, 'category', pre.category, 'subject', pre.subject, 'title', pre.title, 'difficulty', pre.difficulty,
        'time_required_max', pre.time_required_max, 'public', pre.is_public, 'userid', pre.author_id, 'username', coalesce(pu.username, 'Deleted user'),
        'flags', to_json(pre.flags), 'image', ${image('pre.image_id', base)}) ORDER BY pre.ord), '[]'::json)
      FROM pre LEFT JOIN users pu ON pu.id = pre.author_id),
  'documents', '[]'::json,
  'flags', (SELECT coalesce(json_agg(json_build_object('title', coalesce(d.title, f.flagid), 'flagid', f.flagid, 'text', coalesce(d.text, '')) ORDER BY f.o), '[]'::json)
      FROM unnest(g.flags) WITH ORDINALITY AS f(flagid, o) LEFT JOIN ${flagDefinitions} ON d.flagid = f.flagid),
  'author', (SELECT ${userSummary('u', 'g.author_id', base, tables)} FROM (SELECT 1) AS one LEFT JOIN users u ON u.id = g.author_id),
  'revisionid', g.revisionid, 'created_date', ${seconds('g.created_at')}, 'published_date', ${seconds('g.published_at')},
  'modified_date', ${seconds('g.modified_at')}, 'prereq_modified_date', coalesce((SELECT max(${seconds('pre.modified_at')}) FROM pre), 0),
  'public', g.is_public, 'locale', g.locale, 'langid', g.locale, 'available_langids', json_build_array(g.locale), 'url', ${guideUrl('g')},
  'patrol_threshold', 0, 'can_edit', false, 'favorited', false, 'completed', false, 'comments', ${threads('guide', 'g.id', base, tables)},
  'featured_documentid', NULL, 'featured_document_embed_url', '', 'featured_document_thumbnail_url', '', 'intro_video_url', NULL, 'intro_video', NULL
)::text, -1)
  -- json_build_object takes at most 100 arguments: the last keys are appended to its text.
  || ', "contributors" : ' || (SELECT coalesce(jsonb_agg(cs.summary || jsonb_build_object('percent', round(100.0 * c.n / c.total)::int, 'profile_url', cs.summary->'url', 'avatar_url', NULL)
        ORDER BY (c.first = c.creator) DESC, c.n DESC, c.first), '[]'::jsonb)
      FROM (SELECT editor_id, count(*)::int AS n, min(revisionid) AS first, sum(count(*)) OVER () AS total, min(min(revisionid)) OVER () AS creator
              FROM guide_revisions WHERE guide_id = g.id GROUP BY editor_id) c LEFT JOIN users cu ON cu.id = c.editor_id,
        LATERAL (SELECT (${userSummary('cu', 'c.editor_id', base, tables)})::jsonb AS summary) cs)::text
  || ', "translators" : [], "favorites_count" : ' || coalesce(st.favorites_count, 0) || ', "completions_count" : ' || coalesce(st.completions_count, 0)
  || ', "views" : ' || coalesce(st.views, 0) || '}' AS body
FROM g LEFT JOIN guide_stats st ON st.guide_id = g.id`;
}

/** A comment (reference §3.12) as an anonymous reader sees it, with its author; `replies` given. */
function comment(c: string, u: string, replies: string, base: string, tables: FloorTables): string {
  const live = `${c}.deleted_at IS NULL`;
  return `json_build_object('commentid', ${c}.id, 'locale', ${c}.langid, 'context', ${c}.context, 'contextid', ${c}.context_id, 'parentid', ${c}.parent_id, 'title', '',
    'text_raw', CASE WHEN ${live} THEN ${c}.text ELSE '' END, 'text_rendered', CASE WHEN ${live} THEN ${block(`${c}.text`)} ELSE '' END,
    'date', ${seconds(`${c}.created_at`)}, 'modified_date', ${seconds(`${c}.modified_at`)}, 'status', CASE WHEN ${live} THEN 'public' ELSE 'deleted' END, 'rating', 0,
    'author', ${userSummary(u, `${c}.author_id`, base, tables)}, 'replies', ${replies})`;
}

/** The live replies of top-level comment `c`, newest first, each with its author. */
function replies(c: string, base: string, tables: FloorTables): string {
  const r = `${c}_r`;
  return `(SELECT coalesce(json_agg(${comment(r, `${r}u`, `'[]'::json`, base, tables)} ORDER BY ${r}.id DESC), '[]'::json)
      FROM comments ${r} LEFT JOIN users ${r}u ON ${r}u.id = ${r}.author_id WHERE ${r}.parent_id = ${c}.id AND ${r}.deleted_at IS NULL)`;
}

/**
 * The threads on a guide or a step (`comments` of its body): top-level comments oldest first, a
 * deleted one only while it has live replies, each with its replies.
 */
function threads(context: 'guide' | 'step', idExpr: string, base: string, tables: FloorTables): string {
  if (!tables.comments) return `'[]'::json`;
  const t = `${context}_c`;
  return `(SELECT coalesce(json_agg(${comment(t, `${t}u`, replies(t, base, tables), base, tables)} ORDER BY ${t}.id), '[]'::json)
      FROM comments ${t} LEFT JOIN users ${t}u ON ${t}u.id = ${t}.author_id
      WHERE ${t}.context = '${context}' AND ${t}.context_id = ${idExpr} AND ${t}.parent_id IS NULL
        AND (${t}.deleted_at IS NULL OR EXISTS (SELECT 1 FROM comments x WHERE x.parent_id = ${t}.id AND x.deleted_at IS NULL)))`;
}

/**
 * The floor's statement for a comment thread, `GET /api/2.0/comments/{id}` (`$1`): the comment with
 * its author and, for a top-level comment, its live replies (newest first) with theirs, with the
 * key set, order and values of the community context's presenter. No row: an unknown comment, or
 * one on a guide (or a guide's step) that is not public.
 */
export function threadSql(baseUrl: string, tables: FloorTables): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `SELECT ${comment('c', 'u', `CASE WHEN c.parent_id IS NULL THEN ${replies('c', base, tables)} ELSE '[]'::json END`, base, tables)}::text AS body
FROM comments c LEFT JOIN users u ON u.id = c.author_id
WHERE c.id = $1 AND (c.guide_id IS NULL OR EXISTS (SELECT 1 FROM guides g WHERE g.id = c.guide_id AND g.is_public AND g.deleted_at IS NULL))`;
}
