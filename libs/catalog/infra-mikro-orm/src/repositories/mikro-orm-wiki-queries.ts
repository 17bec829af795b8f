import type { EntityManager } from '@mikro-orm/postgresql';
import { WikiQueries, type CategoryNode, type MaintenanceSchedule, type MaintenanceView, type Namespace, type WikiContributor, type WikiPageParts, type WikiPartsOf, type WikiRef, type WikiSummaryView, type WikiTombstoneView } from '@rc/catalog-domain';
import type { Page } from '@rc/shared-kernel';
import { PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';

const SUMMARY = 'w.id, w.namespace, w.title, w.display_title, w.description, w.modified_at, w.langid, w.author_id, w.image_id, w.revisionid';

interface SummaryRow {
  id: number;
  namespace: Namespace;
  title: string;
  display_title: string;
  description: string;
  modified_at: Date | string;
  langid: string;
  author_id: number | null;
  image_id: number | null;
  revisionid: number;
}

const view = (r: SummaryRow): WikiSummaryView => ({
  id: r.id,
  namespace: r.namespace,
  title: r.title,
  displayTitle: r.display_title,
  description: r.description,
  modifiedAt: new Date(r.modified_at),
  langid: r.langid,
  authorId: r.author_id ?? 0,
  imageId: r.image_id,
  revisionid: r.revisionid,
});

/** The SELECT of `contributors` (its parameters: the page id, the revision read, the page id). */
const CONTRIBUTORS = `SELECT editor_id, count(*)::int AS revisions, min(revisionid) AS first_revisionid,
         min(revisionid) = (SELECT min(revisionid) FROM wiki_revisions WHERE wiki_id = ?) AS creator
    FROM wiki_revisions WHERE wiki_id = ? AND revisionid <= ?
   GROUP BY editor_id`;

/** The part of `parts` that only CATEGORY pages have (its parameters: the page id twice). */
const TREE_PARTS = `(SELECT coalesce(json_agg(a ORDER BY a.depth), '[]') FROM (
     WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM wiki_pages WHERE id = ?
       UNION ALL
       SELECT p.id, p.parent_id, up.depth + 1 FROM wiki_pages p JOIN up ON p.id = up.parent_id WHERE up.depth < 100
     )
     SELECT ${SUMMARY}, up.depth FROM up JOIN wiki_pages w ON w.id = up.id WHERE up.depth > 0 AND w.deleted_at IS NULL) a) AS ancestors,
   (SELECT coalesce(json_agg(c ORDER BY c.title), '[]') FROM (SELECT ${SUMMARY} FROM wiki_pages w WHERE w.parent_id = ? AND w.deleted_at IS NULL) c) AS children`;

/** A page's tags, related pages, contributors and stored views (see `parts`), each a JSON value. */
const PAGE_PARTS_COLUMNS = `(SELECT coalesce(json_agg(t.tag ORDER BY t.tag), '[]') FROM wiki_tags t WHERE t.wiki_id = ?) AS tags,
   (SELECT coalesce(json_agg(r ORDER BY r.ord), '[]') FROM (
      SELECT ${SUMMARY}, refs.ord FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS refs(item, ord)
        JOIN wiki_pages w ON w.namespace = refs.item->>'namespace' AND w.title = refs.item->>'title' AND w.deleted_at IS NULL) r) AS related,
   (SELECT coalesce(json_agg(c ORDER BY c.creator DESC, c.revisions DESC, c.first_revisionid), '[]') FROM (${CONTRIBUTORS}) c) AS contributors,
   (SELECT views::text FROM wiki_page_stats WHERE wiki_id = ?) AS views`;

/** A page's parts besides its own row, read on every first read of a page: a category's, with its place in the tree, and another page's. */
const CATEGORY_PARTS = new PreparedStatement(`SELECT ${TREE_PARTS}, ${PAGE_PARTS_COLUMNS}`);
const PAGE_PARTS = new PreparedStatement(`SELECT '[]'::json AS ancestors, '[]'::json AS children, ${PAGE_PARTS_COLUMNS}`);

export class MikroOrmWikiQueries extends WikiQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async categoryTree(): Promise<CategoryNode[]> {
    const rows = await this.em.execute<{ id: number; title: string; display_title: string; parent_id: number | null }[]>(
      `SELECT id, title, display_title, parent_id FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL ORDER BY title`,
    );
    return rows.map((r) => ({ id: r.id, title: r.title, displayTitle: r.display_title, parentId: r.parent_id }));
  }

  /**
   * A version of the live CATEGORY pages that changes with every committed create, edit, move,
   * rename or delete: every save takes a new revision id from one increasing sequence, so an edit
   * raises the sum of the live pages' revision ids (and the maximum, unless an older transaction
   * commits late), a create raises the count, a delete lowers it. One index-only scan.
   */
  async categoryTreeVersion(): Promise<string> {
    const [row] = await this.em.execute<{ version: string }[]>(
      `SELECT count(*) || ':' || coalesce(max(revisionid), 0) || ':' || coalesce(sum(revisionid), 0) AS version
         FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL`,
    );
    return row!.version;
  }

  async list(namespace: Namespace, page: Page, options: { modifiedSince?: Date; leavesOnly?: boolean }): Promise<WikiSummaryView[]> {
    const where = ['w.namespace = ?', 'w.deleted_at IS NULL'];
    const params: unknown[] = [namespace];
    if (options.modifiedSince) {
      where.push('w.modified_at >= ?');
      params.push(options.modifiedSince);
    }
    if (options.leavesOnly) where.push('NOT EXISTS (SELECT 1 FROM wiki_pages c WHERE c.parent_id = w.id AND c.deleted_at IS NULL)');
    const order = options.modifiedSince ? 'w.modified_at DESC, w.id DESC' : 'w.title, w.id';
    const rows = await this.em.execute<SummaryRow[]>(`SELECT ${SUMMARY} FROM wiki_pages w WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`, [
      ...params,
      page.limit,
      page.offset,
    ]);
    return rows.map(view);
  }

  async removedSince(namespace: Namespace, since: Date, page: Page): Promise<WikiTombstoneView[]> {
    const rows = await this.em.execute<{ wiki_id: number; namespace: string; title: string; parent_id: number | null; removed_at: Date | string }[]>(
      `SELECT wiki_id, namespace, title, parent_id, removed_at FROM wiki_tombstones WHERE namespace = ? AND removed_at >= ?
        ORDER BY removed_at DESC, wiki_id DESC LIMIT ? OFFSET ?`,
      [namespace, since, page.limit, page.offset],
    );
    return rows.map((r) => ({ id: r.wiki_id, namespace: r.namespace as Namespace, title: r.title, parentId: r.parent_id, removedAt: new Date(r.removed_at) }));
  }

  async ancestors(id: number): Promise<WikiSummaryView[]> {
    const rows = await this.em.execute<(SummaryRow & { depth: number })[]>(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM wiki_pages WHERE id = ?
         UNION ALL
         SELECT p.id, p.parent_id, up.depth + 1 FROM wiki_pages p JOIN up ON p.id = up.parent_id WHERE up.depth < 100
       )
       SELECT ${SUMMARY}, up.depth FROM up JOIN wiki_pages w ON w.id = up.id WHERE up.depth > 0 AND w.deleted_at IS NULL ORDER BY up.depth`,
      [id],
    );
    return rows.map(view);
  }

  async maintenance(id: number): Promise<MaintenanceView | null> {
    const [row] = await this.em.execute<{ title: string; revisionid: number; schedules: MaintenanceSchedule[] }[]>(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM wiki_pages WHERE id = ?
         UNION ALL
         SELECT p.id, p.parent_id, up.depth + 1 FROM wiki_pages p JOIN up ON p.id = up.parent_id WHERE up.depth < 100
       )
       SELECT w.title, w.revisionid, w.details->'maintenanceSchedule' AS schedules FROM up JOIN wiki_pages w ON w.id = up.id
        WHERE w.deleted_at IS NULL AND jsonb_typeof(w.details->'maintenanceSchedule') = 'array' AND jsonb_array_length(w.details->'maintenanceSchedule') > 0
        ORDER BY up.depth LIMIT 1`,
      [id],
    );
    return row ? { title: row.title, revisionid: row.revisionid, schedules: row.schedules } : null;
  }

  async children(id: number): Promise<WikiSummaryView[]> {
    const rows = await this.em.execute<SummaryRow[]>(`SELECT ${SUMMARY} FROM wiki_pages w WHERE w.parent_id = ? AND w.deleted_at IS NULL ORDER BY w.title`, [id]);
    return rows.map(view);
  }

  async byRefs(refs: readonly WikiRef[]): Promise<WikiSummaryView[]> {
    if (!refs.length) return [];
    // The references travel as one JSON parameter; the unique index on live titles gives at most one page each.
    const rows = await this.em.execute<SummaryRow[]>(
      `SELECT ${SUMMARY} FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS r(item, ord)
         JOIN wiki_pages w ON w.namespace = r.item->>'namespace' AND w.title = r.item->>'title' AND w.deleted_at IS NULL
        ORDER BY r.ord`,
      [JSON.stringify(refs.map((r) => ({ namespace: r.namespace, title: r.title })))],
    );
    return rows.map(view);
  }

  async byIds(ids: readonly number[]): Promise<WikiSummaryView[]> {
    if (!ids.length) return [];
    const rows = await this.em.execute<SummaryRow[]>(
      `SELECT ${SUMMARY} FROM wiki_pages w WHERE w.id IN (SELECT value::int FROM jsonb_array_elements_text(?::jsonb)) AND w.deleted_at IS NULL`,
      [JSON.stringify(ids)],
    );
    return rows.map(view);
  }

  async parts(page: WikiPartsOf): Promise<WikiPageParts> {
    const category = page.namespace === 'CATEGORY';
    // Each part a JSON array built as its own query builds its rows (same conditions, same order).
    const [row] = await queryPrepared<{ ancestors: SummaryRow[]; children: SummaryRow[]; tags: string[]; related: SummaryRow[]; contributors: { editor_id: number; revisions: number; first_revisionid: number; creator: boolean }[]; views: string | null }>(
      this.em,
      category ? CATEGORY_PARTS : PAGE_PARTS,
      [...(category ? [page.id, page.id] : []), page.id, JSON.stringify(page.related.map((r) => ({ namespace: r.namespace, title: r.title }))), page.id, page.id, page.revisionid, page.id],
    );
    return {
      ancestors: row!.ancestors.map(view),
      children: row!.children.map(view),
      tags: row!.tags,
      related: row!.related.map(view),
      contributors: row!.contributors.map((r) => ({ userId: r.editor_id, revisions: r.revisions, firstRevisionid: r.first_revisionid })),
      views: row!.views === null ? 0 : Number(row!.views),
    };
  }

  async views(id: number): Promise<number> {
    const [row] = await this.em.execute<{ views: string }[]>('SELECT views::text AS views FROM wiki_page_stats WHERE wiki_id = ?', [id]);
    return row ? Number(row.views) : 0;
  }

  async contributors(id: number, upToRevisionid: number): Promise<WikiContributor[]> {
    const rows = await this.em.execute<{ editor_id: number; revisions: number; first_revisionid: number }[]>(
      `SELECT c.editor_id, c.revisions, c.first_revisionid FROM (${CONTRIBUTORS}) c ORDER BY c.creator DESC, c.revisions DESC, c.first_revisionid`,
      [id, id, upToRevisionid],
    );
    return rows.map((r) => ({ userId: r.editor_id, revisions: r.revisions, firstRevisionid: r.first_revisionid }));
  }
}
