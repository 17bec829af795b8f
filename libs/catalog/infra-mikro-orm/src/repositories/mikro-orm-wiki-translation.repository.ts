import type { EntityManager } from '@mikro-orm/postgresql';
import { WikiTranslation, WikiTranslationRepository, type WikiId } from '@rc/catalog-domain';

interface TranslationSqlRow {
  wiki_id: number;
  langid: string;
  revisionid: number;
  source_revisionid: number;
  display_title: string | null;
  description: string | null;
  contents: string | null;
  contributor_ids: number[];
  created_at: Date | string;
  modified_at: Date | string;
}

/**
 * Page translations (`wiki_translations`). A save takes a revision id from the pages' sequence,
 * then writes the row, the revision's snapshot and, for a new translation, its language into
 * `wiki_pages.langids`, in one statement.
 */
export class MikroOrmWikiTranslationRepository extends WikiTranslationRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async find(wikiId: number, langid: string): Promise<WikiTranslation | null> {
    const [row] = await this.em.execute<TranslationSqlRow[]>(
      'SELECT wiki_id, langid, revisionid, source_revisionid, display_title, description, contents, contributor_ids, created_at, modified_at FROM wiki_translations WHERE wiki_id = ? AND langid = ?',
      [wikiId, langid],
    );
    if (!row) return null;
    return WikiTranslation.restore({
      wikiId: row.wiki_id as WikiId,
      langid: row.langid,
      revisionid: row.revisionid,
      sourceRevisionid: row.source_revisionid,
      displayTitle: row.display_title,
      description: row.description,
      contents: row.contents,
      contributorIds: row.contributor_ids,
      createdAt: new Date(row.created_at),
      modifiedAt: new Date(row.modified_at),
    });
  }

  async save(translation: WikiTranslation): Promise<void> {
    if (!translation.hasChanges) return;
    const summaryOfChange = translation.summaryOfChange;
    const revisionid = (await this.em.execute<{ n: number }[]>(`SELECT nextval('wiki_revision_seq')::int AS n`))[0]!.n;
    translation.markStored(revisionid);
    const t = translation.state;
    await this.em.execute(
      `WITH t AS (INSERT INTO wiki_translations (wiki_id, langid, revisionid, source_revisionid, display_title, description, contents, contributor_ids, created_at, modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int), ?, ?)
         ON CONFLICT (wiki_id, langid) DO UPDATE SET revisionid = excluded.revisionid, source_revisionid = excluded.source_revisionid,
           display_title = excluded.display_title, description = excluded.description, contents = excluded.contents,
           contributor_ids = excluded.contributor_ids, modified_at = excluded.modified_at
         RETURNING wiki_id, langid),
       languages AS (UPDATE wiki_pages w SET langids = ARRAY(SELECT DISTINCT l FROM unnest(w.langids || t.langid::varchar(2)) AS l ORDER BY l)
         FROM t WHERE w.id = t.wiki_id AND NOT (t.langid = ANY (w.langids)))
       INSERT INTO wiki_translation_revisions (wiki_id, langid, revisionid, snapshot, editor_id, created_at, summary_of_change)
       SELECT t.wiki_id, t.langid, ?, ?::jsonb, ?, ?, ? FROM t`,
      [
        t.wikiId, t.langid, t.revisionid, t.sourceRevisionid, t.displayTitle, t.description, t.contents, JSON.stringify(t.contributorIds), t.createdAt, t.modifiedAt,
        t.revisionid, JSON.stringify(t), translation.editedBy, t.modifiedAt, summaryOfChange,
      ],
    );
  }
}
