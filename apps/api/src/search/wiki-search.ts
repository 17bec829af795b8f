import type { EntityManager } from '@mikro-orm/postgresql';
import { prefixTsQuery, PreparedStatement, queryPrepared, searchConfigOf, webSearchText } from '@rc/shared-infra-mikro-orm';
import { toPlainText } from '@rc/shared-markup';
import type { Page } from '@rc/shared-kernel';

export type WikiNamespace = 'CATEGORY' | 'WIKI' | 'INFO' | 'ITEM';

/** A wiki page found by a search. */
export interface WikiHit {
  readonly wikiid: number;
  readonly namespace: WikiNamespace;
  readonly title: string;
  readonly display_title: string;
  readonly description: string;
  /** The start of the page's text, markup dropped. */
  readonly contents: string;
  readonly langid: string;
  readonly modified_at: Date;
  readonly author_id: number | null;
  readonly image_id: number | null;
  /** The page's revision (not shown: it tells whether a kept result still shows the page as it is). */
  readonly revisionid: number;
  readonly rank: number;
}

/** How much of a page's markup is read for its excerpt, and how long the excerpt may be. */
const RAW_EXCERPT_CHARS = 4000;
export const EXCERPT_CHARS = 300;

interface HitRow extends Omit<WikiHit, 'contents' | 'modified_at' | 'rank'> {
  contents: string;
  modified_at: Date | string;
  rank: number | string;
}

const COLUMNS = `w.id AS wikiid, w.namespace, w.title, w.display_title, w.description, left(w.contents, ${RAW_EXCERPT_CHARS}) AS contents,
  w.langid, w.modified_at, w.author_id, w.image_id, w.revisionid`;

/** A page in a translation's language (`t`): its texts where translated, its revision and language. */
const TRANSLATED_COLUMNS = `w.id AS wikiid, w.namespace, w.title, coalesce(t.display_title, w.display_title) AS display_title, coalesce(t.description, w.description) AS description,
  left(coalesce(t.contents, w.contents), ${RAW_EXCERPT_CHARS}) AS contents, t.langid, greatest(w.modified_at, t.modified_at) AS modified_at, w.author_id, w.image_id, t.revisionid`;

/** The searches in English, prepared (planning a search of few matches took longer than running it). */
const SEARCH = new PreparedStatement(
  `WITH q AS (SELECT websearch_to_tsquery('english', ?) AS query),
       hits AS (SELECT w.id, ts_rank(w.search_vector, q.query) AS rank FROM wiki_pages w CROSS JOIN q
                 WHERE w.deleted_at IS NULL AND w.namespace = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb))) AND w.search_vector @@ q.query),
       top AS (SELECT id, rank FROM hits ORDER BY rank DESC, id LIMIT ? OFFSET ?)
       SELECT (SELECT count(*) FROM hits)::int AS total, top.rank, ${COLUMNS}
         FROM (SELECT 1) AS one LEFT JOIN (top JOIN wiki_pages w ON w.id = top.id) ON TRUE
        ORDER BY top.rank DESC, top.id`,
);
const SUGGEST = new PreparedStatement(
  `SELECT ${COLUMNS}, ts_rank(w.search_vector, q.query) AS rank
         FROM wiki_pages w CROSS JOIN (SELECT to_tsquery('english', ?) AS query) AS q
        WHERE w.deleted_at IS NULL AND w.namespace = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb))) AND w.search_vector @@ q.query
        ORDER BY rank DESC, w.id LIMIT ?`,
);

/** Plain text of the start of some markup, cut on a word boundary. */
export function excerpt(raw: string, max = EXCERPT_CHARS): string {
  const text = toPlainText(raw).replace(/\s+/g, ' ').trim();
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function hit(row: HitRow): WikiHit {
  return { ...row, contents: excerpt(row.contents), modified_at: new Date(row.modified_at), rank: Number(row.rank) };
}

/**
 * Full-text search over the catalog's wiki pages (its generated `search_vector`: titles A,
 * description B, contents C). The catalog library has no search port yet, so this read adapter
 * lives in the composition root. Deleted pages never appear; no query text can cause an SQL error.
 */
export class WikiSearch {
  constructor(private readonly em: EntityManager) {}

  /**
   * A page of the pages matching `query` (web-search syntax) in these namespaces, best first, and
   * the number of all matches. `langid`: the pages' translations into that language (their texts,
   * in its text-search configuration), shown in it.
   */
  async search(query: string, namespaces: readonly WikiNamespace[], page: Page, langid?: string): Promise<{ total: number; results: WikiHit[] }> {
    const text = webSearchText(query);
    if (text === null || !namespaces.length) return { total: 0, results: [] };
    if (langid !== undefined) {
      const rows = await this.em.execute<(Partial<HitRow> & { total: number })[]>(
        `WITH q AS (SELECT websearch_to_tsquery(?::regconfig, ?) AS query),
         hits AS (SELECT t.wiki_id AS id, ts_rank(t.search_vector, q.query) AS rank FROM wiki_translations t CROSS JOIN q JOIN wiki_pages w ON w.id = t.wiki_id
                   WHERE t.langid = ? AND w.deleted_at IS NULL AND w.namespace = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb))) AND t.search_vector @@ q.query),
         top AS (SELECT id, rank FROM hits ORDER BY rank DESC, id LIMIT ? OFFSET ?)
         SELECT (SELECT count(*) FROM hits)::int AS total, top.rank, ${TRANSLATED_COLUMNS}
           FROM (SELECT 1) AS one LEFT JOIN (top JOIN wiki_pages w ON w.id = top.id JOIN wiki_translations t ON t.wiki_id = w.id AND t.langid = ?) ON TRUE
          ORDER BY top.rank DESC, top.id`,
        [searchConfigOf(langid), text, langid, JSON.stringify(namespaces), page.limit, page.offset, langid],
      );
      return { total: rows[0]?.total ?? 0, results: rows.filter((row) => row.wikiid != null).map((row) => hit(row as HitRow)) };
    }
    const rows = await queryPrepared<Partial<HitRow> & { total: number }>(this.em, SEARCH, [text, JSON.stringify(namespaces), page.limit, page.offset]);
    return { total: rows[0]?.total ?? 0, results: rows.filter((row) => row.wikiid != null).map((row) => hit(row as HitRow)) };
  }

  /** Pages of these namespaces with words starting with each word of `query` (type-ahead), best first; `langid`: their translations into it. */
  async suggest(query: string, namespaces: readonly WikiNamespace[], limit: number, langid?: string): Promise<WikiHit[]> {
    const prefixes = prefixTsQuery(query);
    if (prefixes === null || !namespaces.length || limit < 1) return [];
    if (langid !== undefined) {
      return (
        await this.em.execute<HitRow[]>(
          `SELECT ${TRANSLATED_COLUMNS}, ts_rank(t.search_vector, q.query) AS rank
             FROM wiki_translations t CROSS JOIN (SELECT to_tsquery(?::regconfig, ?) AS query) AS q JOIN wiki_pages w ON w.id = t.wiki_id
            WHERE t.langid = ? AND w.deleted_at IS NULL AND w.namespace = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb))) AND t.search_vector @@ q.query
            ORDER BY rank DESC, w.id LIMIT ?`,
          [searchConfigOf(langid), prefixes, langid, JSON.stringify(namespaces), limit],
        )
      ).map(hit);
    }
    const rows = await queryPrepared<HitRow>(this.em, SUGGEST, [prefixes, JSON.stringify(namespaces), limit]);
    return rows.map(hit);
  }
}
