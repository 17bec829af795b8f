import type { EntityManager } from '@mikro-orm/postgresql';
import { GuideQueries, mergeCategoryItems, type GuideSort, type CategoryItems, type GuideListFilter, type GuideSearchResult, type GuideSuggestions, type GuideSummaryView, type GuideTombstoneView } from '@rc/guides-domain';
import { prefixTsQuery, PreparedStatement, queryPrepared, RankingCache, searchConfigOf, webSearchText } from '@rc/shared-infra-mikro-orm';
import type { Page } from '@rc/shared-kernel';
import { intArray } from './sql.js';

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

/** A guide summary in a translation's language (`t`): its texts where translated, its revision and language. */
const TRANSLATED_SUMMARY_COLUMNS = `g.id, t.langid AS locale, t.revisionid, greatest(g.modified_at, t.modified_at) AS modified_at, g.type, g.category,
  coalesce(t.subject, g.subject) AS subject, coalesce(t.title, g.title) AS title, coalesce(t.summary, g.summary) AS summary, g.difficulty,
  g.time_required_max, g.is_public, g.author_id, g.flags, g.image_id,
  (SELECT max(p.modified_at) FROM guides p WHERE p.id = ANY(g.prerequisites) AND p.is_public AND p.deleted_at IS NULL) AS prereq_modified_at`;
/**
 * Each order's rows and key (each has an index of its own, the guide id after the key): the counts
 * of `guide_stats`, or the guides' publication (`guides_newest_idx`).
 */
const SORTS: Record<GuideSort, { from: string; key: string }> = {
  popular: { from: 'guide_stats s JOIN guides g ON g.id = s.guide_id', key: 's.popularity' },
  views: { from: 'guide_stats s JOIN guides g ON g.id = s.guide_id', key: 's.views' },
  favorites: { from: 'guide_stats s JOIN guides g ON g.id = s.guide_id', key: 's.favorites_count' },
  newest: { from: 'guides g', key: 'g.published_at' },
};
/** Not a guide meant only as a prerequisite: public lists leave those out (the predicate of `guides_browse_idx`). */
const NOT_PREREQ_ONLY = `NOT ('GUIDE_PREREQ_ONLY' = ANY(g.flags))`;
/** What other people's lists of a user show: public guides, not those meant only as prerequisites. */
const PUBLIC_OF_USER = `g.is_public AND ${NOT_PREREQ_ONLY}`;

/** A query's head-zone ranking (best first), the size of that zone and the number of all matches. */
interface Ranking {
  readonly headTotal: number;
  readonly total: number;
  readonly top: [number, number][];
}
/** How many head-zone ids a ranking reads at least (the first pages of a query). */
const RANKING_WINDOW = 100;
/** Rankings of queries matching at least this many guides are kept (smaller ones cost little to redo). */
const CACHED_MATCHES = 500;
/** Per process: large rankings live 15 s (new or edited guides may take that long to move in them). */
const SEARCH_RANKINGS = new RankingCache<Ranking>(15_000, 2_000);
const SUGGEST_RANKINGS = new RankingCache<{ ids: number[]; matches: number }>(15_000, 2_000);

/**
 * The parts and tools of a category's public guides, in guide id order, as one JSON array of
 * `[parts, tools]` pairs: merged in the guides domain (mergeCategoryItems), where PostgreSQL spent
 * as long grouping them (a regular expression and five ordered aggregates per item) as reading
 * the guides.
 */
const CATEGORY_ITEM_LISTS = `SELECT coalesce(json_agg(json_build_array(g.parts, g.tools) ORDER BY g.id), '[]') FROM guides g WHERE g.category = ? AND ${LISTED}`;

/** The stored lists of CATEGORY_ITEM_LISTS, merged. */
function itemsOf(lists: readonly [unknown, unknown][]): CategoryItems {
  return mergeCategoryItems(lists.map(([parts, tools]) => ({ parts, tools })));
}

/** A category's guides and their parts and tools (see `categoryGuides`): on every first read of a category page. */
const CATEGORY_GUIDES = new PreparedStatement(
  `SELECT (SELECT coalesce(json_agg(s ORDER BY s.id), '[]') FROM (
             WITH page AS MATERIALIZED (SELECT g.id FROM guides g WHERE ${LISTED} AND g.category = ? ORDER BY g.id ASC LIMIT ?)
             SELECT ${SUMMARY_COLUMNS} FROM page JOIN guides g ON g.id = page.id) s) AS guides,
          (${CATEGORY_ITEM_LISTS}) AS items`,
);

/** The filter of a search restricted to guide types (its value: the types as a JSON array). */
const TYPED = 'AND g.type = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)))';

/** A statement of search, prepared with and without the type filter (`typed`: the filter's text, or nothing). */
function bothFilters(sql: (typed: string) => string): { readonly any: PreparedStatement; readonly typed: PreparedStatement } {
  return { any: new PreparedStatement(sql('')), typed: new PreparedStatement(sql(TYPED)) };
}

/**
 * A search's first page (see `rankPage`), prepared: planning it took as long as running it for a
 * query of few matches. Its query is read from a CTE, so the plan never depended on the text.
 */
const RANK_PAGE = bothFilters(
  (typed) => `WITH q AS (SELECT websearch_to_tsquery('english', ?) AS query),
       matches AS MATERIALIZED (SELECT g.id, CASE WHEN g.search_head @@ q.query THEN ts_rank(g.search_head, q.query) END AS head_rank
                  FROM guides g CROSS JOIN q WHERE ${LISTED} AND g.search_vector @@ q.query ${typed}),
       head_total AS MATERIALIZED (SELECT count(*)::int AS n FROM matches WHERE head_rank IS NOT NULL),
       top AS MATERIALIZED (SELECT id, head_rank AS rank FROM matches WHERE head_rank IS NOT NULL ORDER BY head_rank DESC, id LIMIT ?),
       steps AS MATERIALIZED (SELECT g.id, ts_rank(g.search_vector, q.query) AS rank FROM matches m JOIN guides g ON g.id = m.id CROSS JOIN q
                  WHERE (SELECT n FROM head_total) < ? AND m.head_rank IS NULL
                  ORDER BY rank DESC, g.id
                  LIMIT greatest(0, ? - greatest(?, (SELECT n FROM head_total))) OFFSET greatest(0, ? - (SELECT n FROM head_total))),
       page AS (SELECT id, rank, 0 AS zone FROM (SELECT id, rank FROM top ORDER BY rank DESC, id LIMIT ? OFFSET ?) h
                UNION ALL SELECT id, rank, 1 FROM steps)
       SELECT (SELECT n FROM head_total) AS head_total,
              (SELECT count(*) FROM matches)::int AS total,
              (SELECT coalesce(json_agg(json_build_array(t.id, t.rank) ORDER BY t.rank DESC, t.id), '[]') FROM top t) AS top,
              (SELECT json_agg(r ORDER BY r.zone, r.rank DESC, r.id) FROM (SELECT ${SUMMARY_COLUMNS}, page.rank, page.zone FROM page JOIN guides g ON g.id = page.id) r) AS rows`,
);

/** Guides matching a search only through their step text (see `rankSteps`). */
const RANK_STEPS = bothFilters(
  (typed) => `WITH q AS (SELECT websearch_to_tsquery('english', ?) AS query)
       SELECT g.id, ts_rank(g.search_vector, q.query) AS rank FROM guides g CROSS JOIN q
        WHERE ${LISTED} AND g.search_vector @@ q.query AND NOT (g.search_head @@ q.query) ${typed}
        ORDER BY rank DESC, g.id LIMIT ? OFFSET ?`,
);

/**
 * Suggestions for what is typed (see `suggest`): the heads' ranking (from `guide_search_heads`, the
 * listed guides' heads alone), the step-only matches when fewer than the limit match by their heads,
 * and the rows.
 */
const SUGGEST = new PreparedStatement(
  `WITH q AS (SELECT to_tsquery('english', ?) AS query),
       head AS MATERIALIZED (SELECT h.guide_id AS id, ts_rank(h.search_head, q.query) AS rank FROM guide_search_heads h CROSS JOIN q WHERE h.search_head @@ q.query),
       head_total AS MATERIALIZED (SELECT count(*)::int AS n FROM head),
       top AS MATERIALIZED (SELECT id, rank, 0 AS zone FROM head ORDER BY rank DESC, id LIMIT ?),
       steps AS MATERIALIZED (SELECT g.id, ts_rank(g.search_vector, q.query) AS rank, 1 AS zone FROM guides g CROSS JOIN q
                  WHERE (SELECT n FROM head_total) < ? AND ${LISTED} AND g.search_vector @@ q.query AND NOT (g.search_head @@ q.query)
                  ORDER BY rank DESC, g.id LIMIT greatest(0, ? - (SELECT n FROM head_total)))
       SELECT (SELECT n FROM head_total) AS matches,
              (SELECT json_agg(r ORDER BY r.zone, r.rank DESC, r.id) FROM (SELECT ${SUMMARY_COLUMNS}, p.rank, p.zone
                 FROM (SELECT * FROM top UNION ALL SELECT * FROM steps) p JOIN guides g ON g.id = p.id) r) AS rows`,
);

/** List reads: one query each, whatever the page size. */
export class MikroOrmGuideQueries extends GuideQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(filter: GuideListFilter, page: Page): Promise<GuideSummaryView[]> {
    const where = [LISTED];
    if (!filter.withPrerequisiteOnly) where.push(NOT_PREREQ_ONLY);
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
    if (filter.sort) return this.sorted(filter.sort, where, params, page);
    // The page's ids first (an index scan that skips `offset` ids, no per-row work), then their rows.
    const direction = filter.order === 'DESC' ? 'DESC' : 'ASC';
    const rows = await this.em.execute<SummaryRow[]>(
      `WITH page AS MATERIALIZED (SELECT g.id FROM guides g WHERE ${where.join(' AND ')} ORDER BY g.id ${direction} LIMIT ? OFFSET ?)
       SELECT ${SUMMARY_COLUMNS} FROM page JOIN guides g ON g.id = page.id ORDER BY g.id ${direction}`,
      [...params, page.limit, page.offset],
    );
    return rows.map(view);
  }

  /**
   * A page in one of the orders of GUIDE_SORTS: the order's index is walked and each guide checked
   * against the list's conditions until the page is full, so a page costs its offset and size, not
   * the number of guides.
   */
  private async sorted(sort: GuideSort, where: string[], params: unknown[], page: Page): Promise<GuideSummaryView[]> {
    const { from, key } = SORTS[sort];
    const rows = await this.em.execute<SummaryRow[]>(
      `WITH page AS MATERIALIZED (SELECT g.id, ${key} AS k FROM ${from}
          WHERE ${where.join(' AND ')} ORDER BY ${key} DESC NULLS LAST, g.id DESC LIMIT ? OFFSET ?)
       SELECT ${SUMMARY_COLUMNS} FROM page JOIN guides g ON g.id = page.id ORDER BY page.k DESC NULLS LAST, page.id DESC`,
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

  async tags(guideId: number): Promise<string[]> {
    const rows = await this.em.execute<{ tag: string }[]>('SELECT tag FROM guide_tags WHERE guide_id = ? ORDER BY tag', [guideId]);
    return rows.map((r) => r.tag);
  }

  /**
   * Full-text search in two zones, each ranked by `ts_rank`: first the guides whose head (title,
   * summary, introduction, subject, category: `search_head`, a few hundred bytes) matches, by the
   * head's rank; then those matching only through their step text, by the rank of the whole
   * document (read only when a page reaches them). The total counts every match. Rankings of
   * queries with many matches are kept a few seconds per process ({@link SEARCH_RANKINGS}); the
   * page's rows are always read fresh, listed guides only. One statement per page: the ranking,
   * the totals and the page's rows together (a kept ranking: the rows only).
   */
  async search(query: string, page: Page, types?: readonly string[]): Promise<GuideSearchResult> {
    const text = webSearchText(query);
    if (text === null) return { total: 0, results: [] };
    if (types && !types.length) return { total: 0, results: [] };
    const end = page.offset + page.limit;
    const key = JSON.stringify([text, types ?? null]);
    const keptEntry = SEARCH_RANKINGS.read(key);
    const kept = keptEntry?.value;
    if (kept && (kept.top.length >= end || kept.top.length >= kept.headTotal)) {
      let hits: [number, number][] = kept.top.slice(page.offset, end);
      if (end > kept.headTotal && kept.total > kept.headTotal) {
        const offset = Math.max(0, page.offset - kept.headTotal);
        hits = [...hits, ...(await this.rankSteps(text, end - Math.max(page.offset, kept.headTotal), offset, types))];
      }
      const rows = hits.length ? await this.ordered(hits.map(([id]) => id), LISTED) : [];
      const rankOf = new Map(hits);
      return { total: kept.total, results: rows.map((row) => ({ ...row, rank: rankOf.get(row.guideid)! })), rankedAt: keptEntry!.at };
    }
    const found = await this.rankPage(text, Math.max(end, RANKING_WINDOW), page, types);
    if (found.ranking.total >= CACHED_MATCHES) SEARCH_RANKINGS.set(key, found.ranking);
    return { total: found.ranking.total, results: found.results };
  }

  /**
   * One statement: the head zone's best `window` ids with their ranks, its size, the number of
   * all matches, and the rows of the page, with the step-only matches it reaches (ranked by the
   * whole document only when the head zone ends before the page does). The matches are read once
   * (the whole-document index, then each match's row for its head), as every head match is a
   * match of the whole document, and a match that excludes a word (`-word`) must not hold it
   * anywhere.
   */
  private async rankPage(text: string, window: number, page: Page, types?: readonly string[]): Promise<{ ranking: Ranking; results: GuideSearchResult['results'] }> {
    const end = page.offset + page.limit;
    const [row] = await queryPrepared<{ head_total: number; total: number; top: [number, number][]; rows: (SummaryRow & { rank: number })[] | null }>(
      this.em,
      types ? RANK_PAGE.typed : RANK_PAGE.any,
      [text, ...(types ? [JSON.stringify(types)] : []), window, end, end, page.offset, page.offset, page.limit, page.offset],
    );
    const ranking: Ranking = { headTotal: row!.head_total, total: row!.total, top: row!.top };
    return { ranking, results: (row!.rows ?? []).map((r) => ({ ...view(r), rank: Number(r.rank) })) };
  }

  /** Guides matching only through their step text, by the rank of the whole document. */
  private async rankSteps(text: string, limit: number, offset: number, types?: readonly string[]): Promise<[number, number][]> {
    const rows = await queryPrepared<{ id: number; rank: number }>(this.em, types ? RANK_STEPS.typed : RANK_STEPS.any, [text, ...(types ? [JSON.stringify(types)] : []), limit, offset]);
    return rows.map((row) => [row.id, Number(row.rank)]);
  }

  /**
   * Guides with a word starting with each word typed, in their head (title, summary, introduction,
   * subject, category), best first; when fewer than `limit` do, those matching through their step
   * text follow. Large rankings are kept a few seconds, as for search; rows are read fresh.
   */
  async suggest(query: string, limit: number): Promise<GuideSuggestions> {
    const prefixes = prefixTsQuery(query);
    if (prefixes === null || limit < 1) return { results: [], matches: 0 };
    const key = JSON.stringify([prefixes, limit]);
    const kept = SUGGEST_RANKINGS.read(key);
    if (kept) return { results: kept.value.ids.length ? await this.ordered(kept.value.ids, LISTED) : [], matches: kept.value.matches, rankedAt: kept.at };
    const [row] = await queryPrepared<{ matches: number; rows: SummaryRow[] | null }>(this.em, SUGGEST, [prefixes, limit, limit, limit]);
    const results = (row?.rows ?? []).map(view);
    const matches = row?.matches ?? 0;
    if (matches >= CACHED_MATCHES) SUGGEST_RANKINGS.set(key, { ids: results.map((g) => g.guideid), matches });
    return { results, matches };
  }

  async searchTranslations(langid: string, query: string, page: Page, types?: readonly string[]): Promise<GuideSearchResult> {
    const text = webSearchText(query);
    if (text === null || (types && !types.length)) return { total: 0, results: [] };
    const rows = await this.em.execute<(SummaryRow & { rank: number; total: number })[]>(
      `WITH q AS (SELECT websearch_to_tsquery(?::regconfig, ?) AS query),
       hits AS (SELECT t.guide_id AS id, ts_rank(t.search_vector, q.query) AS rank FROM guide_translations t CROSS JOIN q JOIN guides g ON g.id = t.guide_id
                 WHERE t.langid = ? AND t.search_vector @@ q.query AND ${LISTED} ${types ? 'AND g.type = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)))' : ''}),
       top AS (SELECT id, rank FROM hits ORDER BY rank DESC, id LIMIT ? OFFSET ?)
       SELECT (SELECT count(*) FROM hits)::int AS total, top.rank, ${TRANSLATED_SUMMARY_COLUMNS}
         FROM top JOIN guides g ON g.id = top.id JOIN guide_translations t ON t.guide_id = g.id AND t.langid = ?
        ORDER BY top.rank DESC, top.id`,
      [searchConfigOf(langid), text, langid, ...(types ? [JSON.stringify(types)] : []), page.limit, page.offset, langid],
    );
    const total = rows[0]?.total ?? (page.offset > 0 ? await this.translationMatches(langid, text, types) : 0);
    return { total, results: rows.map((row) => ({ ...view(row), rank: Number(row.rank) })) };
  }

  async suggestTranslations(langid: string, query: string, limit: number): Promise<GuideSuggestions> {
    const prefixes = prefixTsQuery(query);
    if (prefixes === null || limit < 1) return { results: [], matches: 0 };
    const rows = await this.em.execute<(SummaryRow & { matches: number })[]>(
      `WITH q AS (SELECT to_tsquery(?::regconfig, ?) AS query),
       hits AS (SELECT t.guide_id AS id, ts_rank(t.search_vector, q.query) AS rank FROM guide_translations t CROSS JOIN q JOIN guides g ON g.id = t.guide_id
                 WHERE t.langid = ? AND t.search_vector @@ q.query AND ${LISTED} AND ${NOT_PREREQ_ONLY})
       SELECT (SELECT count(*) FROM hits)::int AS matches, ${TRANSLATED_SUMMARY_COLUMNS}
         FROM (SELECT id, rank FROM hits ORDER BY rank DESC, id LIMIT ?) top JOIN guides g ON g.id = top.id JOIN guide_translations t ON t.guide_id = g.id AND t.langid = ?
        ORDER BY top.rank DESC, top.id`,
      [searchConfigOf(langid), prefixes, langid, limit, langid],
    );
    return { results: rows.map(view), matches: rows[0]?.matches ?? 0 };
  }

  /** How many public guides' translations into `langid` match (a page past the last one still reports it). */
  private async translationMatches(langid: string, text: string, types?: readonly string[]): Promise<number> {
    const [row] = await this.em.execute<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM guide_translations t JOIN guides g ON g.id = t.guide_id
        WHERE t.langid = ? AND t.search_vector @@ websearch_to_tsquery(?::regconfig, ?) AND ${LISTED} ${types ? 'AND g.type = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)))' : ''}`,
      [langid, searchConfigOf(langid), text, ...(types ? [JSON.stringify(types)] : [])],
    );
    return row!.n;
  }

  async categoryItems(category: string): Promise<CategoryItems> {
    const [row] = await this.em.execute<{ lists: [unknown, unknown][] }[]>(`SELECT (${CATEGORY_ITEM_LISTS}) AS lists`, [category]);
    return itemsOf(row!.lists);
  }

  async categoryGuides(category: string, limit: number): Promise<{ guides: GuideSummaryView[]; items: CategoryItems }> {
    // Both as their own queries read them (same rows, same orders), each made a JSON array.
    const [row] = await queryPrepared<{ guides: SummaryRow[]; items: [unknown, unknown][] }>(this.em, CATEGORY_GUIDES, [category, limit, category]);
    return { guides: row!.guides.map(view), items: itemsOf(row!.items) };
  }

  async categoriesWithPublicGuides(): Promise<string[]> {
    const rows = await this.em.execute<{ category: string }[]>(`SELECT DISTINCT g.category FROM guides g WHERE ${LISTED}`);
    return rows.map((r) => r.category);
  }

  async removedSince(since: Date, page: Page): Promise<GuideTombstoneView[]> {
    const rows = await this.em.execute<{ guide_id: number; title: string; category: string; reason: 'deleted' | 'private'; removed_at: Date | string }[]>(
      'SELECT guide_id, title, category, reason, removed_at FROM guide_tombstones WHERE removed_at >= ? ORDER BY guide_id LIMIT ? OFFSET ?',
      [since, page.limit, page.offset],
    );
    return rows.map((r) => ({ guideid: r.guide_id, title: r.title, category: r.category, reason: r.reason, removedAt: new Date(r.removed_at) }));
  }

  private async ordered(ids: readonly number[], condition: string): Promise<GuideSummaryView[]> {
    if (!ids.length) return [];
    const array = intArray(ids);
    const rows = await this.em.execute<SummaryRow[]>(`SELECT ${SUMMARY_COLUMNS} FROM guides g WHERE g.id = ANY(${array.sql}) AND ${condition}`, [array.param]);
    const byId = new Map(rows.map((r) => [r.id, view(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
