import type { EntityManager } from '@mikro-orm/postgresql';
import { PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';
import { NO_DETAILS, WikiPage, WikiRepository, WikiTags, type Namespace, type WikiDetails, type WikiId, type WikiRef, type WikiRevisionEntry, type WikiState } from '@rc/catalog-domain';

export const WIKI_COLUMNS = `id, namespace, title, display_title, parent_id, description, contents, image_id, flags, info,
  revisionid, author_id, langid, created_at, modified_at, deleted_at, related, details`;

export interface WikiSqlRow {
  id: number;
  namespace: Namespace;
  title: string;
  display_title: string;
  parent_id: number | null;
  description: string;
  contents: string;
  image_id: number | null;
  flags: string[];
  info: WikiState['info'];
  revisionid: number;
  author_id: number | null;
  langid: string;
  created_at: Date | string;
  modified_at: Date | string;
  deleted_at: Date | string | null;
  related: unknown;
  details: unknown;
  /** Read, never written here (see MikroOrmWikiTranslationRepository). */
  langids?: string[];
}

/** The stored details with every field (rows and snapshots older than a field read as its default). */
export function detailsOf(value: unknown): WikiDetails {
  const d = value && typeof value === 'object' && !Array.isArray(value) ? (value as Partial<WikiDetails>) : {};
  return {
    pageTitle: typeof d.pageTitle === 'string' ? d.pageTitle : null,
    repairabilityScore: typeof d.repairabilityScore === 'number' ? d.repairabilityScore : null,
    sourceRevisionid: typeof d.sourceRevisionid === 'number' ? d.sourceRevisionid : null,
    suppliers: Array.isArray(d.suppliers) ? d.suppliers : NO_DETAILS.suppliers,
    documentIds: Array.isArray(d.documentIds) ? d.documentIds : NO_DETAILS.documentIds,
    maintenanceSchedule: Array.isArray(d.maintenanceSchedule) ? d.maintenanceSchedule : NO_DETAILS.maintenanceSchedule,
    tableOfContents: d.tableOfContents === true,
  };
}

/**
 * Related pages as stored (a jsonb list, whose objects come back with their keys reordered), in
 * the domain's shape; anything else (a snapshot older than the field) reads as none.
 */
export function relatedOf(value: unknown): WikiRef[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((r: unknown) => {
    const o = r as Partial<WikiRef> | null;
    return o && typeof o.namespace === 'string' && typeof o.title === 'string' ? [{ namespace: o.namespace, title: o.title }] : [];
  });
}

export function wikiStateOf(row: WikiSqlRow): WikiState {
  return {
    id: row.id as WikiId,
    namespace: row.namespace,
    title: row.title,
    displayTitle: row.display_title,
    parentId: row.parent_id,
    description: row.description,
    contents: row.contents,
    imageId: row.image_id,
    flags: row.flags,
    info: Array.isArray(row.info) ? row.info : [],
    related: relatedOf(row.related),
    details: detailsOf(row.details),
    revisionid: row.revisionid,
    authorId: row.author_id ?? 0,
    langid: row.langid,
    createdAt: new Date(row.created_at),
    modifiedAt: new Date(row.modified_at),
    deletedAt: row.deleted_at ? new Date(row.deleted_at) : null,
  };
}

/** The live page of a title: on every first read of a page. */
const LIVE_PAGE_BY_TITLE = new PreparedStatement(`SELECT ${WIKI_COLUMNS}, langids FROM wiki_pages WHERE namespace = ? AND title = ? AND deleted_at IS NULL`);

/** Wiki pages mapped from rows; writes lock the row and keep a snapshot of every revision. */
export class MikroOrmWikiRepository extends WikiRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async nextId(): Promise<WikiId> {
    return (await this.em.execute<{ id: number }[]>(`SELECT nextval('wiki_pages_id_seq')::int AS id`))[0]!.id as WikiId;
  }

  async findByTitle(namespace: Namespace, title: string, forUpdate = false): Promise<WikiPage | null> {
    // The live page if there is one (the unique index on live titles), otherwise the latest deleted
    // one (the index on deleted titles).
    const lock = forUpdate ? 'FOR UPDATE' : '';
    let [row] = forUpdate
      ? await this.em.execute<WikiSqlRow[]>(`SELECT ${WIKI_COLUMNS}, langids FROM wiki_pages WHERE namespace = ? AND title = ? AND deleted_at IS NULL FOR UPDATE`, [namespace, title])
      : await queryPrepared<WikiSqlRow>(this.em, LIVE_PAGE_BY_TITLE, [namespace, title]);
    row ??= (
      await this.em.execute<WikiSqlRow[]>(
        `SELECT ${WIKI_COLUMNS}, langids FROM wiki_pages WHERE namespace = ? AND title = ? AND deleted_at IS NOT NULL ORDER BY id DESC LIMIT 1 ${lock}`,
        [namespace, title],
      )
    )[0];
    return row ? WikiPage.restore(wikiStateOf(row), row.langids ?? []) : null;
  }

  async save(page: WikiPage): Promise<void> {
    if (!page.hasChanges) return;
    const revisionid = (await this.em.execute<{ n: number }[]>(`SELECT nextval('wiki_revision_seq')::int AS n`))[0]!.n;
    const s = page.state;
    await this.em.execute(
      `INSERT INTO wiki_pages (${WIKI_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ARRAY(SELECT jsonb_array_elements_text(?::jsonb)), ?::jsonb, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)
       ON CONFLICT (id) DO UPDATE SET display_title = excluded.display_title, parent_id = excluded.parent_id, description = excluded.description,
         contents = excluded.contents, image_id = excluded.image_id, flags = excluded.flags, info = excluded.info, related = excluded.related, details = excluded.details,
         revisionid = excluded.revisionid, modified_at = excluded.modified_at, deleted_at = excluded.deleted_at`,
      [
        s.id,
        s.namespace,
        s.title,
        s.displayTitle,
        s.parentId,
        s.description,
        s.contents,
        s.imageId,
        JSON.stringify(s.flags),
        JSON.stringify(s.info),
        revisionid,
        s.authorId,
        s.langid,
        s.createdAt,
        s.modifiedAt,
        s.deletedAt,
        JSON.stringify(s.related),
        JSON.stringify(s.details),
      ],
    );
    const summaryOfChange = page.summaryOfChange;
    page.markStored(revisionid);
    await this.em.execute('INSERT INTO wiki_revisions (wiki_id, revisionid, snapshot, editor_id, created_at, summary_of_change) VALUES (?, ?, ?::jsonb, ?, ?, ?)', [
      s.id,
      revisionid,
      JSON.stringify(page.state),
      page.editedBy,
      s.modifiedAt,
      summaryOfChange,
    ]);
  }

  async revisions(id: WikiId, page: { limit: number; offset: number }): Promise<WikiRevisionEntry[]> {
    const rows = await this.em.execute<{ revisionid: number; created_at: Date | string; editor_id: number; summary_of_change: string | null; langid: string | null }[]>(
      `SELECT revisionid, created_at, editor_id, summary_of_change, snapshot->>'langid' AS langid
         FROM wiki_revisions WHERE wiki_id = ? ORDER BY revisionid DESC LIMIT ? OFFSET ?`,
      [id, page.limit, page.offset],
    );
    return rows.map((r) => ({ revisionid: r.revisionid, date: new Date(r.created_at), editorId: r.editor_id, summaryOfChange: r.summary_of_change, langid: r.langid ?? 'en' }));
  }

  async snapshot(id: WikiId, revisionid: number): Promise<WikiState | null> {
    const [row] = await this.em.execute<{ snapshot: Record<string, unknown> }[]>('SELECT snapshot FROM wiki_revisions WHERE wiki_id = ? AND revisionid = ?', [id, revisionid]);
    if (!row) return null;
    const s = row.snapshot;
    return {
      ...(s as unknown as WikiState),
      related: relatedOf(s['related']),
      details: detailsOf(s['details']),
      createdAt: new Date(s['createdAt'] as string),
      modifiedAt: new Date(s['modifiedAt'] as string),
      deletedAt: s['deletedAt'] ? new Date(s['deletedAt'] as string) : null,
    };
  }

  async categoryId(title: string): Promise<number | null> {
    // FOR SHARE waits for a concurrent delete of that page and then sees it deleted.
    const [row] = await this.em.execute<{ id: number }[]>(`SELECT id FROM wiki_pages WHERE namespace = 'CATEGORY' AND title = ? AND deleted_at IS NULL FOR SHARE`, [title]);
    return row?.id ?? null;
  }

  async isInSubtree(id: WikiId, candidateParent: number): Promise<boolean> {
    const [row] = await this.em.execute<{ inside: boolean }[]>(
      `WITH RECURSIVE up(id, parent_id) AS (
         SELECT id, parent_id FROM wiki_pages WHERE id = ?
         UNION
         SELECT p.id, p.parent_id FROM wiki_pages p JOIN up ON p.id = up.parent_id
       ) SELECT EXISTS (SELECT 1 FROM up WHERE id = ?) AS inside`,
      [candidateParent, id],
    );
    return row!.inside;
  }

  async liveChildren(id: WikiId): Promise<number> {
    return (await this.em.execute<{ n: number }[]>('SELECT count(*)::int AS n FROM wiki_pages WHERE parent_id = ? AND deleted_at IS NULL', [id]))[0]!.n;
  }

  async existing(refs: readonly WikiRef[]): Promise<WikiRef[]> {
    if (!refs.length) return [];
    // The list travels as one JSON parameter (an array parameter would be expanded into a list).
    const rows = await this.em.execute<{ namespace: Namespace; title: string }[]>(
      `SELECT r.item->>'namespace' AS namespace, r.item->>'title' AS title FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS r(item, ord)
        WHERE EXISTS (SELECT 1 FROM wiki_pages w WHERE w.namespace = r.item->>'namespace' AND w.title = r.item->>'title' AND w.deleted_at IS NULL)
        ORDER BY r.ord`,
      [JSON.stringify(refs.map((r) => ({ namespace: r.namespace, title: r.title })))],
    );
    const out: WikiRef[] = [];
    for (const row of rows) if (!out.some((r) => r.namespace === row.namespace && r.title === row.title)) out.push({ namespace: row.namespace, title: row.title });
    return out;
  }
}

export class MikroOrmWikiTags extends WikiTags {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(id: WikiId): Promise<string[]> {
    return (await this.em.execute<{ tag: string }[]>('SELECT tag FROM wiki_tags WHERE wiki_id = ? ORDER BY tag', [id])).map((r) => r.tag);
  }

  async add(id: WikiId, tag: string, at: Date): Promise<boolean> {
    return (await this.em.execute('INSERT INTO wiki_tags (wiki_id, tag, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1 AS added', [id, tag, at])).length > 0;
  }

  async remove(id: WikiId, tag: string): Promise<boolean> {
    return (await this.em.execute('DELETE FROM wiki_tags WHERE wiki_id = ? AND tag = ? RETURNING 1 AS removed', [id, tag])).length > 0;
  }
}
