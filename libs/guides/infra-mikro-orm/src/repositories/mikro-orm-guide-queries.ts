import type { EntityManager } from '@mikro-orm/postgresql';
import { GuideQueries, type CategoryItems, type CategoryItemView, type GuideListFilter, type GuideSearchResult, type GuideSummaryView } from '@rc/guides-domain';
import { prefixTsQuery, webSearchText } from '@rc/shared-infra-mikro-orm';
import type { Page } from '@rc/shared-kernel';
import { intArray } from './sql.js';
import { PUBLIC_GUIDE_VERSION_SQL } from './guide-version.js';

const SUMMARY_COLUMNS = `g.id, g.locale, g.revisionid, g.modified_at, g.type, g.category, g.subject, g.title, g.summary, g.difficulty,
  g.time_required_max, g.is_public, g.author_id, g.flags, g.image_id,
  (SELECT max(p.modified_at) FROM guides p WHERE p.id = ANY(g.prerequisites) AND p.is_public AND p.deleted_at IS NULL) AS prereq_modified_at`;

interface SummaryRow {
  id: number;
  locale: string;
  revisionid: number;
  modified_at: Date | string;
  prereq_modified_at: Date | string | null;
  type: GuideSummaryView['type'];
  category: string;
  subject: string;
  title: string;
  summary: string;
  difficulty: GuideSummaryView['difficulty'];
  time_required_max: number;
  is_public: boolean;
  author_id: number;
  flags: string[];
  image_id: number | null;
}

function view(row: SummaryRow): GuideSummaryView {
  return {
    guideid: row.id,
    locale: row.locale,
    revisionid: row.revisionid,
    modifiedAt: new Date(row.modified_at),
    prereqModifiedAt: row.prereq_modified_at ? new Date(row.prereq_modified_at) : null,
    type: row.type,
    category: row.category,
    subject: row.subject,
    title: row.title,
    summary: row.summary,
    difficulty: row.difficulty,
    timeRequiredMax: row.time_required_max,
    isPublic: row.is_public,
    authorId: row.author_id,
    flags: row.flags,
    imageId: row.image_id,
  };
}

const LISTED = 'g.is_public AND g.deleted_at IS NULL';
/** What other people's lists of a user show: public guides, not those meant only as prerequisites. */
const PUBLIC_OF_USER = `g.is_public AND NOT ('GUIDE_PREREQ_ONLY' = ANY(g.flags))`;

/** List reads: one query each, whatever the page size. */
export class MikroOrmGuideQueries extends GuideQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(filter: GuideListFilter, page: Page): Promise<GuideSummaryView[]> {
    const where = [LISTED];
    const params: unknown[] = [];
    if (filter.types) {
      where.push('g.type = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)))');
      params.push(JSON.stringify(filter.types));
    }
    if (filter.modifiedSince) {
      where.push('g.modified_at >= ?');
      params.push(filter.modifiedSince);
    }
    if (filter.flag) {
      where.push('g.flags @> ARRAY[?]::text[]');
      params.push(filter.flag);
    }
    if (filter.category !== undefined) {
      where.push('g.category = ?');
      params.push(filter.category);
    }
    // The page's ids first (an index scan that skips `offset` ids, no per-row work), then their rows.
    const direction = filter.order === 'DESC' ? 'DESC' : 'ASC';
    const rows = await this.em.execute<SummaryRow[]>(
      `WITH page AS MATERIALIZED (SELECT g.id FROM guides g WHERE ${where.join(' AND ')} ORDER BY g.id ${direction} LIMIT ? OFFSET ?)
       SELECT ${SUMMARY_COLUMNS} FROM page JOIN guides g ON g.id = page.id ORDER BY g.id ${direction}`,
      [...params, page.limit, page.offset],
    );
    return rows.map(view);
  }

  byIds(ids: readonly number[]): Promise<GuideSummaryView[]> {
    return this.ordered(ids, LISTED);
  }

  byIdsIncludingPrivate(ids: readonly number[]): Promise<GuideSummaryView[]> {
    return this.ordered(ids, 'g.deleted_at IS NULL');
  }

  async byAuthor(authorId: number, page: Page, order: 'ASC' | 'DESC', own: boolean): Promise<GuideSummaryView[]> {
    const direction = order === 'DESC' ? 'DESC' : 'ASC';
    const rows = await this.em.execute<SummaryRow[]>(
      `WITH page AS MATERIALIZED (SELECT g.id FROM guides g WHERE g.author_id = ? AND g.deleted_at IS NULL ${own ? '' : `AND ${PUBLIC_OF_USER}`}
          ORDER BY g.id ${direction} LIMIT ? OFFSET ?)
       SELECT ${SUMMARY_COLUMNS} FROM page JOIN guides g ON g.id = page.id ORDER BY g.id ${direction}`,
      [authorId, page.limit, page.offset],
    );
    return rows.map(view);
  }

  async marked(kind: 'favorite' | 'completion', userId: number, page: Page, own: { isAdmin: boolean } | null): Promise<{ date: Date; guide: GuideSummaryView }[]> {
    const order = kind === 'favorite' ? 'm.created_at DESC, g.id DESC' : 'g.id ASC';
    const pageOrder = kind === 'favorite' ? 'page.marked_at DESC, page.id DESC' : 'page.id ASC';
    // Own lists hold the private guides the user may still see; a guide made private by someone
    // else drops out of them (its mark can still be removed).
    const visible = own ? (own.isAdmin ? 'TRUE' : '(g.is_public OR g.author_id = m.user_id)') : PUBLIC_OF_USER;
    const rows = await this.em.execute<(SummaryRow & { marked_at: Date | string })[]>(
      `WITH page AS MATERIALIZED (SELECT g.id, m.created_at AS marked_at FROM guide_marks m JOIN guides g ON g.id = m.guide_id
          WHERE m.kind = ? AND m.user_id = ? AND g.deleted_at IS NULL AND ${visible}
          ORDER BY ${order} LIMIT ? OFFSET ?)
       SELECT ${SUMMARY_COLUMNS}, page.marked_at FROM page JOIN guides g ON g.id = page.id ORDER BY ${pageOrder}`,
      [kind, userId, page.limit, page.offset],
    );
    return rows.map((row) => ({ date: new Date(row.marked_at), guide: view(row) }));
  }

  async marksOf(userId: number, guideIds: readonly number[]): Promise<{ favorited: Set<number>; completed: Set<number> }> {
    const favorited = new Set<number>();
    const completed = new Set<number>();
    if (guideIds.length) {
      const array = intArray(guideIds);
      const rows = await this.em.execute<{ kind: string; guide_id: number }[]>(`SELECT kind, guide_id FROM guide_marks WHERE user_id = ? AND guide_id = ANY(${array.sql})`, [
        userId,
        array.param,
      ]);
      for (const row of rows) (row.kind === 'favorite' ? favorited : completed).add(row.guide_id);
    }
    return { favorited, completed };
  }

  async publicVersion(guideId: number): Promise<string | null> {
    const [row] = await this.em.execute<{ version: string }[]>(PUBLIC_GUIDE_VERSION_SQL.replace('$1', '?'), [guideId]);
    return row?.version ?? null;
  }

  async tags(guideId: number): Promise<string[]> {
    const rows = await this.em.execute<{ tag: string }[]>('SELECT tag FROM guide_tags WHERE guide_id = ? ORDER BY tag', [guideId]);
    return rows.map((r) => r.tag);
  }

  async search(query: string, page: Page, types?: readonly string[]): Promise<GuideSearchResult> {
    const text = webSearchText(query);
    if (text === null) return { total: 0, results: [] };
    const where = [LISTED, 'g.search_vector @@ q.query'];
    const params: unknown[] = [text];
    if (types) {
      where.push('g.type = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)))');
      params.push(JSON.stringify(types));
    }
    // One statement: the total of all hits and one page of them (a row of NULLs when the page is empty).
    const rows = await this.em.execute<(Partial<SummaryRow> & { total: number; rank: number | null })[]>(
      `WITH q AS (SELECT websearch_to_tsquery('english', ?) AS query),
       hits AS (SELECT g.id, ts_rank(g.search_vector, q.query) AS rank FROM guides g CROSS JOIN q WHERE ${where.join(' AND ')}),
       top AS (SELECT id, rank FROM hits ORDER BY rank DESC, id LIMIT ? OFFSET ?)
       SELECT (SELECT count(*) FROM hits)::int AS total, top.rank, ${SUMMARY_COLUMNS}
         FROM (SELECT 1) AS one LEFT JOIN (top JOIN guides g ON g.id = top.id) ON TRUE
        ORDER BY top.rank DESC, top.id`,
      [...params, page.limit, page.offset],
    );
    return {
      total: rows[0]?.total ?? 0,
      results: rows.filter((row) => row.id != null).map((row) => ({ ...view(row as SummaryRow), rank: Number(row.rank) })),
    };
  }

  async suggest(query: string, limit: number): Promise<GuideSummaryView[]> {
    const prefixes = prefixTsQuery(query);
    if (prefixes === null || limit < 1) return [];
    const rows = await this.em.execute<SummaryRow[]>(
      `SELECT ${SUMMARY_COLUMNS}, ts_rank(g.search_vector, q.query) AS rank
         FROM guides g CROSS JOIN (SELECT to_tsquery('english', ?) AS query) AS q
        WHERE ${LISTED} AND g.search_vector @@ q.query ORDER BY rank DESC, g.id LIMIT ?`,
      [prefixes, limit],
    );
    return rows.map(view);
  }

  async categoryItems(category: string): Promise<CategoryItems> {
    // Both lists in one statement: every item of every public guide of the category, grouped by
    // its name folded (lower case, white space collapsed), first values taken in guide/item order.
    const rows = await this.em.execute<(CategoryItemView & { kind: 'part' | 'tool' })[]>(
      `WITH items AS (
         SELECT l.kind, g.id AS guide_id, i.ord, i.item, lower(btrim(regexp_replace(i.item->>'text', '\\s+', ' ', 'g'))) AS name_key
           FROM guides g
          CROSS JOIN LATERAL (VALUES ('part', g.parts), ('tool', g.tools)) AS l(kind, list)
          CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(l.list) = 'array' THEN l.list ELSE '[]'::jsonb END) WITH ORDINALITY AS i(item, ord)
          WHERE g.category = ? AND ${LISTED} AND jsonb_typeof(i.item->'text') = 'string'
       )
       SELECT kind,
              (array_agg(item->>'text' ORDER BY guide_id, ord))[1] AS text,
              coalesce((array_agg(item->>'type' ORDER BY guide_id, ord) FILTER (WHERE coalesce(item->>'type', '') <> ''))[1], '') AS type,
              max(CASE WHEN jsonb_typeof(item->'quantity') = 'number' THEN (item->>'quantity')::numeric::int ELSE 1 END) AS quantity,
              (array_agg(item->>'url' ORDER BY guide_id, ord) FILTER (WHERE coalesce(item->>'url', '') <> ''))[1] AS url,
              (array_agg(item->>'thumbnail' ORDER BY guide_id, ord) FILTER (WHERE coalesce(item->>'thumbnail', '') <> ''))[1] AS thumbnail,
              bool_and(coalesce(item->'isoptional' = 'true'::jsonb, false)) AS isoptional,
              bool_or(coalesce(item->'featured' = 'true'::jsonb, false)) AS featured,
              count(DISTINCT guide_id)::int AS guides
         FROM items
        GROUP BY kind, name_key
        ORDER BY kind, count(DISTINCT guide_id) DESC, name_key, 2`,
      [category],
    );
    const item = ({ kind: _kind, ...rest }: CategoryItemView & { kind: string }): CategoryItemView => rest;
    return { parts: rows.filter((r) => r.kind === 'part').map(item), tools: rows.filter((r) => r.kind === 'tool').map(item) };
  }

  async categoriesWithPublicGuides(): Promise<string[]> {
    const rows = await this.em.execute<{ category: string }[]>(`SELECT DISTINCT g.category FROM guides g WHERE ${LISTED}`);
    return rows.map((r) => r.category);
  }

  private async ordered(ids: readonly number[], condition: string): Promise<GuideSummaryView[]> {
    if (!ids.length) return [];
    const array = intArray(ids);
    const rows = await this.em.execute<SummaryRow[]>(`SELECT ${SUMMARY_COLUMNS} FROM guides g WHERE g.id = ANY(${array.sql}) AND ${condition}`, [array.param]);
    const byId = new Map(rows.map((r) => [r.id, view(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
