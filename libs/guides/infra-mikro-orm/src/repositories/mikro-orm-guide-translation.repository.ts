import type { EntityManager } from '@mikro-orm/postgresql';
import { GuideTranslation, GuideTranslationRepository, type GuideContributor, type GuideId, type GuideTranslationState, type TranslatedStep } from '@rc/guides-domain';
import { intArray } from './sql.js';
import { stepsPlainText } from './steps-text.js';

interface TranslationSqlRow {
  guide_id: number;
  langid: string;
  revisionid: number;
  source_revisionid: number;
  title: string | null;
  subject: string | null;
  summary: string | null;
  introduction: string | null;
  conclusion: string | null;
  steps: Record<string, TranslatedStep>;
  contributor_ids: number[];
  created_at: Date | string;
  modified_at: Date | string;
  /** `[userid, revisions, first revisionid]` of each editor of its stored revisions. */
  translators: [number, number, number][];
}

/**
 * A translation's row and, in the same statement, its translators: the editors of its stored
 * revisions (`guide_translation_revisions`), counted as a guide's contributors are.
 */
const COLUMNS = `t.guide_id, t.langid, t.revisionid, t.source_revisionid, t.title, t.subject, t.summary, t.introduction, t.conclusion, t.steps, t.contributor_ids, t.created_at, t.modified_at,
  (SELECT coalesce(json_agg(json_build_array(r.editor_id, r.n, r.first) ORDER BY r.first), '[]')
     FROM (SELECT editor_id, count(*)::int AS n, min(revisionid) AS first FROM guide_translation_revisions
            WHERE guide_id = t.guide_id AND langid = t.langid GROUP BY editor_id) r) AS translators`;
const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function stateOf(row: TranslationSqlRow): GuideTranslationState {
  return {
    guideId: row.guide_id as GuideId,
    langid: row.langid,
    revisionid: row.revisionid,
    sourceRevisionid: row.source_revisionid,
    title: row.title,
    subject: row.subject,
    summary: row.summary,
    introduction: row.introduction,
    conclusion: row.conclusion,
    steps: Object.fromEntries(Object.entries(row.steps).map(([id, step]) => [Number(id), step])),
    contributorIds: row.contributor_ids,
    createdAt: date(row.created_at),
    modifiedAt: date(row.modified_at),
  };
}

function translatorsOf(row: TranslationSqlRow): GuideContributor[] {
  return row.translators.map(([userId, revisions, firstRevisionid]) => ({ userId, revisions, firstRevisionid }));
}

/** The plain text of a translation's steps that search reads (their translated titles and lines only). */
function translatedStepsText(state: GuideTranslationState): string {
  return stepsPlainText(Object.values(state.steps).map((s) => ({ title: s.title ?? '', lines: s.lines.flatMap((text) => (text === null ? [] : [{ text }])) })));
}

/**
 * Guide translations (`guide_translations`), one row per guide and language. A save is one
 * statement: the new revision ids (the translation's and its changed steps', from the guides'
 * revision sequence), the row, the revision's snapshot and, for a new translation, its language
 * added to `guides.langids` (which the version trigger announces).
 */
export class MikroOrmGuideTranslationRepository extends GuideTranslationRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async find(guideId: number, langid: string): Promise<GuideTranslation | null> {
    const [row] = await this.em.execute<TranslationSqlRow[]>(`SELECT ${COLUMNS} FROM guide_translations t WHERE t.guide_id = ? AND t.langid = ?`, [guideId, langid]);
    return row ? GuideTranslation.restore(stateOf(row), translatorsOf(row)) : null;
  }

  async findMany(guideIds: readonly number[], langid: string): Promise<Map<number, GuideTranslation>> {
    if (!guideIds.length) return new Map();
    const array = intArray(guideIds);
    const rows = await this.em.execute<TranslationSqlRow[]>(`SELECT ${COLUMNS} FROM guide_translations t WHERE t.guide_id = ANY(${array.sql}) AND t.langid = ?`, [array.param, langid]);
    return new Map(rows.map((row) => [row.guide_id, GuideTranslation.restore(stateOf(row), translatorsOf(row))]));
  }

  async save(translation: GuideTranslation): Promise<void> {
    if (!translation.hasChanges) return;
    const changedSteps = translation.stepIdsChanged;
    const summaryOfChange = translation.summaryOfChange;
    const [ids] = await this.em.execute<{ revs: number[] }[]>(`SELECT ARRAY(SELECT nextval('guide_revision_seq')::int FROM generate_series(1, ?)) AS revs`, [changedSteps.length + 1]);
    // Steps first (lower ids), then the translation's own: as a guide's save does.
    const revs = [...ids!.revs].sort((a, b) => a - b);
    const revisionid = revs.pop()!;
    translation.markStored(revisionid, new Map(changedSteps.map((id, i) => [id, revs[i]!])));
    const t = translation.state;
    const steps = JSON.stringify(t.steps);
    await this.em.execute(
      `WITH t AS (INSERT INTO guide_translations (guide_id, langid, revisionid, source_revisionid, title, subject, summary, introduction, conclusion, steps, steps_text, contributor_ids, created_at, modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int), ?, ?)
         ON CONFLICT (guide_id, langid) DO UPDATE SET revisionid = excluded.revisionid, source_revisionid = excluded.source_revisionid, title = excluded.title,
           subject = excluded.subject, summary = excluded.summary, introduction = excluded.introduction, conclusion = excluded.conclusion,
           steps = excluded.steps, steps_text = excluded.steps_text, contributor_ids = excluded.contributor_ids, modified_at = excluded.modified_at
         RETURNING guide_id, langid),
       languages AS (UPDATE guides g SET langids = ARRAY(SELECT DISTINCT l FROM unnest(g.langids || t.langid::varchar(2)) AS l ORDER BY l)
         FROM t WHERE g.id = t.guide_id AND NOT (t.langid = ANY (g.langids)))
       INSERT INTO guide_translation_revisions (guide_id, langid, revisionid, snapshot, editor_id, created_at, summary_of_change)
       SELECT t.guide_id, t.langid, ?, ?::jsonb, ?, ?, ? FROM t`,
      [
        t.guideId, t.langid, t.revisionid, t.sourceRevisionid, t.title, t.subject, t.summary, t.introduction, t.conclusion, steps, translatedStepsText(t), JSON.stringify(t.contributorIds), t.createdAt, t.modifiedAt,
        t.revisionid, JSON.stringify(t), translation.editedBy, t.modifiedAt, summaryOfChange,
      ],
    );
  }
}
