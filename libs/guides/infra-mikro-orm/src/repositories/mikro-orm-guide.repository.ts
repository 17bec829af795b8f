import type { EntityManager } from '@mikro-orm/postgresql';
import { Guide, GuideRepository, type GuideAccess, type GuideContributor, type GuideId, type GuideRevisionEntry, type GuideSnapshot, type GuideState, type GuideStatistics, type StepState } from '@rc/guides-domain';
import { guideEditorsSql, intArray } from './sql.js';
import { stepsPlainText } from './steps-text.js';
import { GUIDE_STEPS_VECTOR } from '../migrations/20261201100000-guides-steps-vector.js';

export const GUIDE_COLUMNS = `id, revisionid, author_id, contributor_ids, title, category, subject, type, difficulty, summary,
  introduction, conclusion, time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags,
  document_ids, featured_documentid, intro_objectid, is_public, locale, created_at, modified_at, published_at, deleted_at, langids`;

interface GuideSqlRow {
  id: number;
  revisionid: number;
  author_id: number;
  contributor_ids: number[];
  title: string;
  category: string;
  subject: string;
  type: string;
  difficulty: string | null;
  summary: string;
  introduction: string;
  conclusion: string;
  time_required_min: number;
  time_required_max: number;
  image_id: number | null;
  parts: unknown;
  tools: unknown;
  prerequisites: number[];
  flags: string[];
  document_ids: number[];
  featured_documentid: number | null;
  intro_objectid: number | null;
  is_public: boolean;
  locale: string;
  created_at: Date | string;
  modified_at: Date | string;
  published_at: Date | string | null;
  deleted_at: Date | string | null;
  langids?: string[];
}

/**
 * What is read with a guide of row `g` besides its content, in the same statement: its counts
 * (`guide_stats`), whether its discussion stamp ever moved (see GUIDE_DISCUSSION_CHANGED_SQL) and
 * its contributors (the editors of its revisions, as `[userid, revisions, first revisionid]`).
 */
function statisticsColumns(g: string): string {
  return `(SELECT json_build_array(st.views, st.favorites_count, st.completions_count) FROM guide_stats st WHERE st.guide_id = ${g}.id) AS counts,
    ${g}.discussion_seq > 0 AS discussed,
    (SELECT coalesce(json_agg(json_build_array(r.editor_id, r.n, r.first) ORDER BY r.first), '[]')
       FROM (SELECT editor_id, count(*)::int AS n, min(revisionid) AS first FROM guide_revisions
              WHERE guide_id = ${g}.id GROUP BY editor_id) r) AS contributors`;
}

interface StatisticsSqlRow {
  /** `[views, favourites, completions]` (views is a bigint: text in JSON only above 2^53). */
  counts: [number | string, number, number] | null;
  discussed: boolean;
  contributors: [number, number, number][];
}

function contributorsOf(rows: readonly [number, number, number][]): GuideContributor[] {
  return rows.map(([userId, revisions, firstRevisionid]) => ({ userId, revisions, firstRevisionid }));
}

export function statisticsOf(row: StatisticsSqlRow): GuideStatistics {
  const [views, favorites, completions] = row.counts ?? [0, 0, 0];
  // A guide read in its own language: the translators are a translation's (see GuideTranslation).
  return { views: Number(views), favorites, completions, contributors: contributorsOf(row.contributors), translators: [], discussed: row.discussed };
}

interface StepSqlRow {
  id: number;
  guide_id: number;
  orderby: number;
  revisionid: number;
  title: string;
  lines: unknown;
  media: unknown;
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const maybeDate = (value: Date | string | null): Date | null => (value === null ? null : date(value));

export function guideStateOf(row: GuideSqlRow): GuideState {
  return {
    id: row.id as GuideId,
    revisionid: row.revisionid,
    authorId: row.author_id,
    contributorIds: row.contributor_ids,
    title: row.title,
    category: row.category,
    subject: row.subject,
    type: row.type as GuideState['type'],
    difficulty: row.difficulty as GuideState['difficulty'],
    summary: row.summary,
    introduction: row.introduction,
    conclusion: row.conclusion,
    timeRequiredMin: row.time_required_min,
    timeRequiredMax: row.time_required_max,
    imageId: row.image_id,
    parts: row.parts as GuideState['parts'],
    tools: row.tools as GuideState['tools'],
    prerequisites: row.prerequisites,
    flags: row.flags,
    documentIds: row.document_ids,
    featuredDocumentId: row.featured_documentid,
    introObjectId: row.intro_objectid,
    isPublic: row.is_public,
    locale: row.locale,
    createdAt: date(row.created_at),
    modifiedAt: date(row.modified_at),
    publishedAt: maybeDate(row.published_at),
    deletedAt: maybeDate(row.deleted_at),
  };
}

export function stepStateOf(row: StepSqlRow): StepState {
  return { id: row.id, orderby: row.orderby, revisionid: row.revisionid, title: row.title, lines: row.lines as StepState['lines'], media: row.media as StepState['media'] };
}

/** A snapshot as stored: the state with dates as ISO text. */
function snapshotOf(guide: Guide): { state: GuideState; steps: StepState[] } {
  return { state: guide.state, steps: guide.steps.map((s) => s.toState()) };
}

/** One column of `guides` as a state field is written: its name and the SQL of its parameter. */
interface ColumnWrite {
  readonly column: string;
  readonly sql: string;
  readonly param: (s: GuideState) => unknown;
}

const json = (value: unknown): string => JSON.stringify(value);
const INT_ARRAY = 'ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)';
const TEXT_ARRAY = 'ARRAY(SELECT jsonb_array_elements_text(?::jsonb))';

/** Every writable field of the state, in `GUIDE_COLUMNS` order (`id` and `revisionid` aside). */
const WRITES: Partial<Record<keyof GuideState, ColumnWrite>> = {
  authorId: { column: 'author_id', sql: '?', param: (s) => s.authorId },
  contributorIds: { column: 'contributor_ids', sql: INT_ARRAY, param: (s) => json(s.contributorIds) },
  title: { column: 'title', sql: '?', param: (s) => s.title },
  category: { column: 'category', sql: '?', param: (s) => s.category },
  subject: { column: 'subject', sql: '?', param: (s) => s.subject },
  type: { column: 'type', sql: '?', param: (s) => s.type },
  difficulty: { column: 'difficulty', sql: '?', param: (s) => s.difficulty },
  summary: { column: 'summary', sql: '?', param: (s) => s.summary },
  introduction: { column: 'introduction', sql: '?', param: (s) => s.introduction },
  conclusion: { column: 'conclusion', sql: '?', param: (s) => s.conclusion },
  timeRequiredMin: { column: 'time_required_min', sql: '?', param: (s) => s.timeRequiredMin },
  timeRequiredMax: { column: 'time_required_max', sql: '?', param: (s) => s.timeRequiredMax },
  imageId: { column: 'image_id', sql: '?', param: (s) => s.imageId },
  parts: { column: 'parts', sql: '?::jsonb', param: (s) => json(s.parts) },
  tools: { column: 'tools', sql: '?::jsonb', param: (s) => json(s.tools) },
  prerequisites: { column: 'prerequisites', sql: INT_ARRAY, param: (s) => json(s.prerequisites) },
  flags: { column: 'flags', sql: TEXT_ARRAY, param: (s) => json(s.flags) },
  documentIds: { column: 'document_ids', sql: INT_ARRAY, param: (s) => json(s.documentIds) },
  featuredDocumentId: { column: 'featured_documentid', sql: '?', param: (s) => s.featuredDocumentId },
  introObjectId: { column: 'intro_objectid', sql: '?', param: (s) => s.introObjectId },
  isPublic: { column: 'is_public', sql: '?', param: (s) => s.isPublic },
  locale: { column: 'locale', sql: '?', param: (s) => s.locale },
  createdAt: { column: 'created_at', sql: '?', param: (s) => s.createdAt },
  modifiedAt: { column: 'modified_at', sql: '?', param: (s) => s.modifiedAt },
  publishedAt: { column: 'published_at', sql: '?', param: (s) => s.publishedAt },
  deletedAt: { column: 'deleted_at', sql: '?', param: (s) => s.deletedAt },
};
const WRITTEN_FIELDS = Object.keys(WRITES) as (keyof GuideState)[];

/** The fields `search_head` (and the start of `search_vector`) is made of: a change to one regenerates both. */
const HEAD_FIELDS: readonly (keyof GuideState)[] = ['title', 'summary', 'introduction', 'subject', 'category'];
/** `steps_vector` of the step text given as a parameter (see GuidesStepsVector). */
const STEPS_VECTOR_OF_PARAM = GUIDE_STEPS_VECTOR.replace('steps_text', '?::text');
/** `steps_vector` as stored, or parsed from the stored step text once when a guide has none yet. */
const STEPS_VECTOR_KEPT = `coalesce(steps_vector, ${GUIDE_STEPS_VECTOR})`;
/** Who else may edit a guide read from `guides` (see `load`). */
const EDITORS = guideEditorsSql('guides');

/** A guide as it was read (or last stored) in this unit of work: what `save` compares against. */
interface Stored {
  readonly state: GuideState;
  /** Collaborators and teams as read. */
  readonly access: GuideAccess;
  /** Step id → orderby. */
  readonly orderby: ReadonlyMap<number, number>;
}

const storedOf = (guide: Guide): Stored => ({ state: { ...guide.state }, access: guide.access, orderby: new Map(guide.steps.map((s) => [s.id, s.orderby])) });

/**
 * Guides and their steps, mapped from rows. Writes happen inside a unit of work on a guide
 * locked with `findForUpdate`; every stored change gets new revision ids from one sequence and
 * a snapshot, so any revision can be read back.
 *
 * A guide read here remembers how it was stored, so `save` writes only what changed: the guide's
 * changed columns, the new, edited and moved steps, the removed ones, and the revision's
 * snapshot, in one statement (after one more that draws ids, only when steps need new ones).
 */
export class MikroOrmGuideRepository extends GuideRepository {
  private readonly stored = new WeakMap<Guide, Stored>();

  constructor(private readonly em: EntityManager) {
    super();
  }

  async nextId(): Promise<GuideId> {
    const [row] = await this.em.execute<{ id: number }[]>(`SELECT nextval('guides_id_seq')::int AS id`);
    return row!.id as GuideId;
  }

  findById(id: GuideId): Promise<Guide | null> {
    return this.load(id, '');
  }

  findForUpdate(id: GuideId): Promise<Guide | null> {
    return this.load(id, 'FOR UPDATE');
  }

  /** Several guides with their steps in two queries, in the order asked. */
  async findMany(ids: readonly number[]): Promise<Guide[]> {
    if (!ids.length) return [];
    const array = intArray(ids);
    const rows = await this.em.execute<(GuideSqlRow & StatisticsSqlRow)[]>(`SELECT ${GUIDE_COLUMNS}, ${statisticsColumns('guides')} FROM guides WHERE id = ANY(${array.sql})`, [array.param]);
    const steps = await this.em.execute<StepSqlRow[]>(`SELECT * FROM guide_steps WHERE guide_id = ANY(${array.sql}) ORDER BY guide_id, orderby`, [array.param]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [Guide.restore(guideStateOf(row), steps.filter((s) => s.guide_id === id).map(stepStateOf), undefined, statisticsOf(row), row.langids ?? [])] : [];
    });
  }

  async save(guide: Guide): Promise<void> {
    if (!guide.hasChanges) return;
    const s = guide.state;
    // Without a record of how it was stored (a new guide, or one not read here), everything is written.
    const before = s.revisionid === 0 ? undefined : this.stored.get(guide);
    const written = guide.steps.filter((step) => !before || step.id === 0 || step.changed || before.orderby.get(step.id) !== step.orderby);
    const removed = guide.stepIdsRemoved;

    // New steps need ids, changed ones new revision ids (drawn before the guide's, so they are lower).
    const fresh = written.filter((step) => step.id === 0).length;
    const revised = written.filter((step) => step.changed).length;
    if (fresh || revised) {
      const [row] = await this.em.execute<{ ids: number[]; revs: number[] }[]>(
        `SELECT ARRAY(SELECT nextval('guide_steps_id_seq')::int FROM generate_series(1, ?)) AS ids,
                ARRAY(SELECT nextval('guide_revision_seq')::int FROM generate_series(1, ?)) AS revs`,
        [fresh, revised],
      );
      const ids = [...row!.ids].sort((a, b) => a - b);
      const revs = [...row!.revs].sort((a, b) => a - b);
      for (const step of written) {
        if (step.id === 0) Object.assign(step, { id: ids.shift() });
        if (step.changed) Object.assign(step, { revisionid: revs.shift() });
      }
    }

    const params: unknown[] = [];
    const ctes: string[] = [];
    const stepsChanged = written.length > 0 || removed.length > 0;
    if (!before) {
      const columns = WRITTEN_FIELDS.map((field) => WRITES[field]!);
      const text = stepsPlainText(guide.steps);
      params.push(s.id, ...columns.map((c) => c.param(s)), text, text);
      ctes.push(`g AS (INSERT INTO guides (id, revisionid, ${columns.map((c) => c.column).join(', ')}, steps_text, steps_vector)
        VALUES (?, nextval('guide_revision_seq'), ${columns.map((c) => c.sql).join(', ')}, ?, ${STEPS_VECTOR_OF_PARAM})
        ON CONFLICT (id) DO UPDATE SET revisionid = excluded.revisionid, ${[...columns.map((c) => c.column), 'steps_text', 'steps_vector']
          .filter((c) => c !== 'author_id' && c !== 'created_at')
          .map((c) => `${c} = excluded.${c}`)
          .join(', ')}
        RETURNING revisionid)`);
    } else {
      const changed = WRITTEN_FIELDS.filter((field) => s[field] !== before.state[field]);
      const columns = changed.map((field) => WRITES[field]!);
      const sets = columns.map((c) => `${c.column} = ${c.sql}`);
      params.push(...columns.map((c) => c.param(s)));
      // The steps' search vector is parsed only when the steps change: an edit of the head joins
      // the kept one to the new head (see GuidesStepsVector).
      if (stepsChanged) {
        const text = stepsPlainText(guide.steps);
        sets.push('steps_text = ?', `steps_vector = ${STEPS_VECTOR_OF_PARAM}`);
        params.push(text, text);
      } else if (changed.some((field) => HEAD_FIELDS.includes(field))) {
        sets.push(`steps_vector = ${STEPS_VECTOR_KEPT}`);
      }
      params.push(s.id);
      ctes.push(`g AS (UPDATE guides SET revisionid = nextval('guide_revision_seq')${sets.map((set) => `, ${set}`).join('')} WHERE id = ? RETURNING revisionid)`);
    }
    if (removed.length) {
      ctes.push(`removed AS (DELETE FROM guide_steps WHERE guide_id = ? AND id = ANY(${INT_ARRAY}))`);
      params.push(s.id, json(removed));
    }
    if (written.length) {
      // New steps inserted, edited and moved ones updated: only those.
      ctes.push(`written AS (INSERT INTO guide_steps (id, guide_id, orderby, revisionid, title, lines, media)
         SELECT x.id, ?, x.orderby, x.revisionid, x.title, x.lines, x.media
           FROM jsonb_to_recordset(?::jsonb) AS x(id int, orderby int, revisionid int, title text, lines jsonb, media jsonb)
         ON CONFLICT (id) DO UPDATE SET orderby = excluded.orderby, revisionid = excluded.revisionid, title = excluded.title,
           lines = excluded.lines, media = excluded.media)`);
      params.push(s.id, json(written.map((step) => step.toState())));
    }
    // The snapshot is the new revision; its id is the one the guide's row just got.
    const snapshot = snapshotOf(guide);
    ctes.push(`revision AS (INSERT INTO guide_revisions (guide_id, revisionid, snapshot, editor_id, created_at, summary_of_change)
       SELECT ?, g.revisionid, jsonb_set(?::jsonb, '{state,revisionid}', to_jsonb(g.revisionid)), ?, ?, ? FROM g)`);
    params.push(s.id, json({ ...snapshot, state: { ...snapshot.state, revisionid: 0 } }), guide.editedBy, s.modifiedAt, guide.summaryOfChange);

    const [row] = await this.em.execute<{ revisionid: number }[]>(`WITH ${ctes.join(',\n')}\nSELECT revisionid FROM g`, params);
    if (!row) throw new Error(`guide ${s.id} vanished while it was being saved`);
    guide.markStored(row.revisionid);
    this.stored.set(guide, storedOf(guide));
  }

  async snapshot(id: GuideId, revisionid: number): Promise<GuideSnapshot | null> {
    const [row] = await this.em.execute<({ snapshot: { state: Record<string, unknown>; steps: StepState[] } } & Pick<StatisticsSqlRow, 'contributors'>)[]>(
      `SELECT snapshot, (SELECT coalesce(json_agg(json_build_array(r.editor_id, r.n, r.first) ORDER BY r.first), '[]')
         FROM (SELECT editor_id, count(*)::int AS n, min(revisionid) AS first FROM guide_revisions
                WHERE guide_id = rev.guide_id AND revisionid <= rev.revisionid GROUP BY editor_id) r) AS contributors
         FROM guide_revisions rev WHERE guide_id = ? AND revisionid = ?`,
      [id, revisionid],
    );
    if (!row) return null;
    const state = row.snapshot.state;
    const stored = state as unknown as Partial<GuideState> & GuideState;
    const dates = ['createdAt', 'modifiedAt', 'publishedAt', 'deletedAt'] as const;
    return {
      state: {
        ...stored,
        // Revisions stored before the document fields existed had none.
        documentIds: stored.documentIds ?? [],
        featuredDocumentId: stored.featuredDocumentId ?? null,
        introObjectId: stored.introObjectId ?? null,
        ...Object.fromEntries(dates.map((k) => [k, state[k] ? new Date(state[k] as string) : null])),
      },
      steps: row.snapshot.steps,
      contributors: contributorsOf(row.contributors),
    };
  }

  async revisions(id: GuideId, page: { limit: number; offset: number }): Promise<GuideRevisionEntry[]> {
    const rows = await this.em.execute<{ revisionid: number; created_at: Date | string; editor_id: number; summary_of_change: string | null; langid: string | null }[]>(
      `SELECT revisionid, created_at, editor_id, summary_of_change, snapshot->'state'->>'locale' AS langid
         FROM guide_revisions WHERE guide_id = ? ORDER BY revisionid DESC LIMIT ? OFFSET ?`,
      [id, page.limit, page.offset],
    );
    return rows.map((r) => ({ revisionid: r.revisionid, date: date(r.created_at), editorId: r.editor_id, summaryOfChange: r.summary_of_change, langid: r.langid ?? 'en' }));
  }

  /** Writes the differences from the lists as read, in one statement. */
  async saveAccess(guide: Guide): Promise<void> {
    const before = this.stored.get(guide)?.access ?? { userIds: [], teamIds: [] };
    const now = guide.access;
    const added = (kind: 'userIds' | 'teamIds') => now[kind].filter((id) => !before[kind].includes(id));
    const removed = (kind: 'userIds' | 'teamIds') => before[kind].filter((id) => !now[kind].includes(id));
    await this.em.execute(
      `WITH add_users AS (INSERT INTO guide_collaborators (guide_id, user_id, created_at) SELECT ?, u, now() FROM unnest(${INT_ARRAY}) AS u ON CONFLICT DO NOTHING),
            del_users AS (DELETE FROM guide_collaborators WHERE guide_id = ? AND user_id = ANY(${INT_ARRAY})),
            add_teams AS (INSERT INTO guide_teams (guide_id, team_id, created_at) SELECT ?, t, now() FROM unnest(${INT_ARRAY}) AS t ON CONFLICT DO NOTHING)
       DELETE FROM guide_teams WHERE guide_id = ? AND team_id = ANY(${INT_ARRAY})`,
      [guide.id, json(added('userIds')), guide.id, json(removed('userIds')), guide.id, json(added('teamIds')), guide.id, json(removed('teamIds'))],
    );
    const stored = this.stored.get(guide);
    if (stored) this.stored.set(guide, { ...stored, access: now });
  }

  async missing(ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return [];
    const array = intArray(ids);
    const rows = await this.em.execute<{ id: number }[]>(
      `SELECT u.id FROM unnest(${array.sql}) AS u(id) WHERE NOT EXISTS (SELECT 1 FROM guides g WHERE g.id = u.id AND g.deleted_at IS NULL) ORDER BY u.id`,
      [array.param],
    );
    return rows.map((r) => r.id);
  }

  async wouldCycle(id: GuideId, prerequisites: readonly number[]): Promise<boolean> {
    if (!prerequisites.length) return false;
    const array = intArray(prerequisites);
    const [row] = await this.em.execute<{ cycle: boolean }[]>(
      `WITH RECURSIVE reach(id) AS (
         SELECT unnest(${array.sql})
         UNION
         SELECT unnest(g.prerequisites) FROM guides g JOIN reach r ON g.id = r.id WHERE g.deleted_at IS NULL
       ) SELECT EXISTS (SELECT 1 FROM reach WHERE id = ?) AS cycle`,
      [array.param, id],
    );
    return row!.cycle;
  }

  async dependents(id: GuideId): Promise<number[]> {
    const rows = await this.em.execute<{ id: number }[]>('SELECT id FROM guides WHERE prerequisites @> ARRAY[?]::int[] AND deleted_at IS NULL ORDER BY id', [id]);
    return rows.map((r) => r.id);
  }

  /**
   * The guide and its steps in one statement (steps as JSON, in step order). With `FOR UPDATE`, a
   * row another transaction changed meanwhile is returned as that transaction committed it, but
   * the steps are read in the statement's snapshot, taken before the wait: when the revision the
   * snapshot sees differs from the locked row's (every save changes it), the steps are read again,
   * now that the lock is held.
   */
  private async load(id: GuideId, lock: 'FOR UPDATE' | ''): Promise<Guide | null> {
    const [row] = await this.em.execute<(GuideSqlRow & StatisticsSqlRow & { steps: StepSqlRow[]; seen_revisionid: number | null; collaborator_ids: number[]; team_ids: number[] })[]>(
      `SELECT ${GUIDE_COLUMNS}, ${statisticsColumns('guides')},
         (SELECT coalesce(json_agg(json_build_object('id', s.id, 'orderby', s.orderby, 'revisionid', s.revisionid, 'title', s.title, 'lines', s.lines, 'media', s.media)
            ORDER BY s.orderby), '[]') FROM guide_steps s WHERE s.guide_id = guides.id) AS steps,
         ${EDITORS.collaboratorIds} AS collaborator_ids,
         ${EDITORS.teamIds} AS team_ids,
         ${lock ? '(SELECT seen.revisionid FROM guides seen WHERE seen.id = guides.id)' : 'revisionid'} AS seen_revisionid
       FROM guides WHERE id = ? ${lock}`,
      [id],
    );
    if (!row) return null;
    const steps = row.seen_revisionid === row.revisionid ? row.steps : await this.em.execute<StepSqlRow[]>('SELECT * FROM guide_steps WHERE guide_id = ? ORDER BY orderby', [id]);
    const guide = Guide.restore(guideStateOf(row), steps.map(stepStateOf), { userIds: row.collaborator_ids, teamIds: row.team_ids }, statisticsOf(row), row.langids ?? []);
    this.stored.set(guide, storedOf(guide));
    return guide;
  }
}
