import type { EntityManager } from '@mikro-orm/postgresql';
import { Guide, GuideRepository, type GuideId, type GuideSnapshot, type GuideState, type StepState } from '@rc/guides-domain';
import { intArray } from './sql.js';
import { stepsPlainText } from './steps-text.js';

export const GUIDE_COLUMNS = `id, revisionid, author_id, contributor_ids, title, category, subject, type, difficulty, summary,
  introduction, conclusion, time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags,
  is_public, locale, created_at, modified_at, published_at, deleted_at`;

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
  is_public: boolean;
  locale: string;
  created_at: Date | string;
  modified_at: Date | string;
  published_at: Date | string | null;
  deleted_at: Date | string | null;
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
function snapshotOf(guide: Guide): unknown {
  return { state: guide.state, steps: guide.steps.map((s) => s.toState()) };
}

/**
 * Guides and their steps, mapped from rows. Writes happen inside a unit of work on a guide
 * locked with `findForUpdate`; every stored change gets new revision ids from one sequence and
 * a snapshot, so any revision can be read back.
 */
export class MikroOrmGuideRepository extends GuideRepository {
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
    const rows = await this.em.execute<GuideSqlRow[]>(`SELECT ${GUIDE_COLUMNS} FROM guides WHERE id = ANY(${array.sql})`, [array.param]);
    const steps = await this.em.execute<StepSqlRow[]>(`SELECT * FROM guide_steps WHERE guide_id = ANY(${array.sql}) ORDER BY guide_id, orderby`, [array.param]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [Guide.restore(guideStateOf(row), steps.filter((s) => s.guide_id === id).map(stepStateOf))] : [];
    });
  }

  async save(guide: Guide): Promise<void> {
    if (!guide.hasChanges) return;
    const next = async () => (await this.em.execute<{ n: number }[]>(`SELECT nextval('guide_revision_seq')::int AS n`))[0]!.n;
    for (const step of guide.steps) {
      if (step.id === 0) {
        const [row] = await this.em.execute<{ id: number }[]>(`SELECT nextval('guide_steps_id_seq')::int AS id`);
        Object.assign(step, { id: row!.id });
      }
      if (step.changed) Object.assign(step, { revisionid: await next() });
    }
    const revisionid = await next();
    const s = guide.state;
    await this.em.execute(
      `INSERT INTO guides (${GUIDE_COLUMNS}, steps_text) VALUES (?, ?, ?, ${intArray(s.contributorIds).sql}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb,
         ${intArray(s.prerequisites).sql}, ARRAY(SELECT jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET revisionid = excluded.revisionid, contributor_ids = excluded.contributor_ids, title = excluded.title,
         category = excluded.category, subject = excluded.subject, type = excluded.type, difficulty = excluded.difficulty,
         summary = excluded.summary, introduction = excluded.introduction, conclusion = excluded.conclusion,
         time_required_min = excluded.time_required_min, time_required_max = excluded.time_required_max, image_id = excluded.image_id,
         parts = excluded.parts, tools = excluded.tools, prerequisites = excluded.prerequisites, flags = excluded.flags,
         is_public = excluded.is_public, locale = excluded.locale, modified_at = excluded.modified_at,
         published_at = excluded.published_at, deleted_at = excluded.deleted_at, steps_text = excluded.steps_text`,
      [
        s.id, revisionid, s.authorId, JSON.stringify(s.contributorIds), s.title, s.category, s.subject, s.type, s.difficulty, s.summary,
        s.introduction, s.conclusion, s.timeRequiredMin, s.timeRequiredMax, s.imageId, JSON.stringify(s.parts), JSON.stringify(s.tools),
        JSON.stringify(s.prerequisites), JSON.stringify(s.flags), s.isPublic, s.locale, s.createdAt, s.modifiedAt, s.publishedAt, s.deletedAt,
        stepsPlainText(guide.steps),
      ],
    );
    if (guide.stepIdsRemoved.length) {
      const removed = intArray(guide.stepIdsRemoved);
      await this.em.execute(`DELETE FROM guide_steps WHERE guide_id = ? AND id = ANY(${removed.sql})`, [s.id, removed.param]);
    }
    if (guide.steps.length) {
      // All steps in one statement: new ones inserted, changed and moved ones updated.
      await this.em.execute(
        `INSERT INTO guide_steps (id, guide_id, orderby, revisionid, title, lines, media)
         SELECT x.id, ?, x.orderby, x.revisionid, x.title, x.lines, x.media
           FROM jsonb_to_recordset(?::jsonb) AS x(id int, orderby int, revisionid int, title text, lines jsonb, media jsonb)
         ON CONFLICT (id) DO UPDATE SET orderby = excluded.orderby, revisionid = excluded.revisionid, title = excluded.title,
           lines = excluded.lines, media = excluded.media
         WHERE (guide_steps.orderby, guide_steps.revisionid) IS DISTINCT FROM (excluded.orderby, excluded.revisionid)`,
        [s.id, JSON.stringify(guide.steps.map((step) => step.toState()))],
      );
    }
    guide.markStored(revisionid);
    await this.em.execute('INSERT INTO guide_revisions (guide_id, revisionid, snapshot, editor_id, created_at) VALUES (?, ?, ?::jsonb, ?, ?)', [
      s.id,
      revisionid,
      JSON.stringify(snapshotOf(guide)),
      guide.editedBy,
      s.modifiedAt,
    ]);
  }

  async snapshot(id: GuideId, revisionid: number): Promise<GuideSnapshot | null> {
    const [row] = await this.em.execute<{ snapshot: { state: Record<string, unknown>; steps: StepState[] } }[]>(
      'SELECT snapshot FROM guide_revisions WHERE guide_id = ? AND revisionid = ?',
      [id, revisionid],
    );
    if (!row) return null;
    const state = row.snapshot.state;
    const dates = ['createdAt', 'modifiedAt', 'publishedAt', 'deletedAt'] as const;
    return {
      state: { ...(state as unknown as GuideState), ...Object.fromEntries(dates.map((k) => [k, state[k] ? new Date(state[k] as string) : null])) },
      steps: row.snapshot.steps,
    };
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

  private async load(id: GuideId, lock: string): Promise<Guide | null> {
    const [row] = await this.em.execute<GuideSqlRow[]>(`SELECT ${GUIDE_COLUMNS} FROM guides WHERE id = ? ${lock}`, [id]);
    if (!row) return null;
    const steps = await this.em.execute<StepSqlRow[]>('SELECT * FROM guide_steps WHERE guide_id = ? ORDER BY orderby', [id]);
    return Guide.restore(guideStateOf(row), steps.map(stepStateOf));
  }
}
