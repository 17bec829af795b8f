import { GuideQueries, type GuideSummaryView } from '@rc/guides-domain';
import { RankingCache } from '@rc/shared-infra-mikro-orm';
import { DEFAULT_LANGID, InvalidParameterError, toUnixSeconds, type Page } from '@rc/shared-kernel';
import { wikiUrl } from '@rc/catalog-http';
import type { GuideReader } from '@rc/guides-http';
import { imageOrNull, type ImageObject } from '@rc/media-contracts';
import type { AppConfig } from '../config/config.js';
import { sameState, type SearchFreshness, type ShownIds, type ShownState } from './search-freshness.js';
import { WikiSearch, type WikiHit, type WikiNamespace } from './wiki-search.js';

const NAMESPACES: readonly WikiNamespace[] = ['CATEGORY', 'WIKI', 'INFO', 'ITEM'];

/** The images the pages in results show (bound to the media context's published images): one lookup per result list. */
export abstract class SearchImages {
  abstract objects(ids: readonly number[]): Promise<Map<number, ImageObject>>;
}

/** What a `/search` filter asks for: guides (`undefined` types = every type, `null` = none) and wiki namespaces. */
export interface SearchScope {
  readonly guideTypes: readonly string[] | undefined | null;
  readonly namespaces: readonly WikiNamespace[];
}

/**
 * `filter` of `/search`: a list of result types. `guide`: guides of any type, `teardown`: teardown
 * guides, `wiki`: WIKI pages, `category`/`device`: CATEGORY pages, `item`, `info`. Types this
 * service has no content for (`question`, `product`) and unknown ones match nothing. No filter
 * (or an empty one): everything.
 */
export function searchScope(filter: readonly string[] | undefined): SearchScope {
  const values = (filter ?? []).map((v) => v.toLowerCase());
  if (!values.length) return { guideTypes: undefined, namespaces: NAMESPACES };
  const namespaces = new Set<WikiNamespace>();
  const types = new Set<string>();
  let allGuides = false;
  for (const value of values) {
    if (value === 'guide') allGuides = true;
    else if (value === 'teardown') types.add('teardown');
    else if (value === 'wiki') namespaces.add('WIKI');
    else if (value === 'category' || value === 'device') namespaces.add('CATEGORY');
    else if (value === 'item') namespaces.add('ITEM');
    else if (value === 'info') namespaces.add('INFO');
  }
  return { guideTypes: allGuides ? undefined : types.size ? [...types] : null, namespaces: NAMESPACES.filter((ns) => namespaces.has(ns)) };
}

export type Doctype = 'topic' | 'guide' | 'item' | 'question';

const DOCTYPES: Record<string, readonly Doctype[]> = {
  guide: ['guide'],
  item: ['item'],
  topic: ['topic'],
  device: ['topic'],
  category: ['topic'],
  question: ['question'],
  post: ['question'],
  all: ['topic', 'guide'],
};

/** The 400 of a `doctypes` with no known value. */
export const NO_VALID_DOCTYPE = `Parameter 'doctypes' has no valid value: use ${Object.keys(DOCTYPES).join(', ')}`;

/**
 * `doctypes` of `/suggest` (comma- or pipe-separated), in the order asked, without repeats: `device` and `category` mean
 * `topic` (CATEGORY pages), `post` means `question`, `all` means topic and guide (also the default).
 * Unknown values are ignored; a list with no known value is a 400.
 */
export function doctypesOf(raw: readonly string[] | undefined): Doctype[] {
  if (!raw?.length) return [...DOCTYPES['all']!];
  const doctypes = [...new Set(raw.flatMap((value) => value.split('|')).flatMap((value) => DOCTYPES[value.trim().toLowerCase()] ?? []))];
  if (!doctypes.length) throw new InvalidParameterError(NO_VALID_DOCTYPE);
  return doctypes;
}

/** Up to `max` items taken from the lists in turn (one from each, in order, while any is left): a fair share each. */
export function balance<T>(lists: readonly (readonly T[])[], max: number): T[][] {
  const taken = lists.map(() => 0);
  for (let left = max, progress = true; left > 0 && progress; ) {
    progress = false;
    lists.forEach((list, i) => {
      if (left > 0 && taken[i]! < list.length) {
        taken[i]!++;
        left--;
        progress = true;
      }
    });
  }
  return lists.map((list, i) => list.slice(0, taken[i]));
}

export type Hit = { kind: 'guide'; rank: number; id: number; guide: GuideSummaryView } | { kind: 'wiki'; rank: number; id: number; wiki: WikiHit };

/** Best rank first; equal ranks: guides, then pages, each by id (the order each source pages in). */
function better(a: Hit, b: Hit): number {
  return b.rank - a.rank || (a.kind === b.kind ? 0 : a.kind === 'guide' ? -1 : 1) || a.id - b.id;
}

/**
 * Two lists, each in its source's order, merged by {@link better} at their heads: each source's
 * order is kept (guides rank their head matches before their step-only matches, whose ranks are
 * on another scale), the merge interleaves them by rank.
 */
export function merge(a: readonly Hit[], b: readonly Hit[]): Hit[] {
  const out: Hit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(better(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  return [...out, ...a.slice(i), ...b.slice(j)];
}

export const MAX_SUGGESTIONS = 10;
/**
 * Deepest `offset` of `/search`. Merging two sources reads `offset + limit` hits of each, so
 * deep pages cost in proportion; clients page far less deep than this.
 */
export const MAX_SEARCH_OFFSET = 10_000;
const GUIDE_ID_QUERY = /^guideid:\s*([0-9]{1,9})$/i;

/** Pages of `/search` whose query matches at least this many guides are kept (as the guides' rankings are). */
export const KEPT_PAGE_MATCHES = 500;
/** How long a kept page may serve its order and total (its items are checked on every use). */
export const KEPT_PAGE_MS = 15_000;
/** Pages of at most this many results are kept (a few dozen KB each), at most {@link KEPT_PAGES} of them. */
export const KEPT_PAGE_LIMIT = 50;
const KEPT_PAGES = 500;

type SearchBody = Awaited<ReturnType<SiteSearch['searchNow']>>['body'];
type Presented = Awaited<ReturnType<SiteSearch['present']>>;

/** An answer and `since`: when the oldest ranking it shows was computed (ms), `null` when all were computed for it (see StampedBody). */
export type Ranked<Body> = { readonly body: Body; readonly since: number | null };

interface KeptPage<Body> {
  readonly body: Body;
  readonly shown: ShownIds;
  readonly state: ShownState;
  /** When its order and total were computed (ms). */
  readonly since: number;
}

const DELETED_USER = 'Deleted user';

/** The ids of what a page shows and their state as shown (guides' revisions and prerequisites' dates, pages' revisions, authors' names). */
function shownOf(hits: readonly Hit[], results: readonly ({ dataType: 'guide'; userid: number; username: string } | { dataType: 'wiki' })[]): { shown: ShownIds; state: ShownState } {
  const guides = hits.flatMap((hit) => (hit.kind === 'guide' ? [hit.guide] : []));
  const wikis = hits.flatMap((hit) => (hit.kind === 'wiki' ? [hit.wiki] : []));
  const names = new Map<number, string>();
  for (const result of results) if (result.dataType === 'guide' && result.username !== DELETED_USER) names.set(result.userid, result.username);
  const byId = <T extends readonly unknown[]>(a: T, b: T) => (a[0] as number) - (b[0] as number);
  const unique = <T extends readonly unknown[]>(list: T[]) => list.filter((item, i) => list.findIndex((other) => other[0] === item[0]) === i).sort(byId);
  return {
    shown: { guides: guides.map((g) => g.guideid), wikis: wikis.map((w) => w.wikiid), authors: guides.map((g) => g.authorId) },
    state: {
      guides: unique(guides.map((g): [number, number, number] => [g.guideid, g.revisionid, g.prereqModifiedAt ? toUnixSeconds(g.prereqModifiedAt) : 0])),
      wikis: unique(wikis.map((w): [number, number] => [w.wikiid, w.revisionid])),
      authors: unique([...names].map(([id, name]): [number, string] => [id, name])),
    },
  };
}

/** `/search` and `/suggest`: guides (through the guides context's queries) and wiki pages, merged. */
export class SiteSearch {
  /** Pages of queries matching many guides, per process (see {@link search}). */
  readonly kept = new RankingCache<KeptPage<SearchBody>>(KEPT_PAGE_MS, KEPT_PAGES);
  /** Suggestions for prefixes matching many guides, per process (see {@link suggest}). */
  readonly keptSuggestions = new RankingCache<KeptPage<{ query: string; results: Presented }>>(KEPT_PAGE_MS, KEPT_PAGES);

  constructor(
    private readonly guides: GuideQueries,
    private readonly reader: GuideReader,
    private readonly wikis: WikiSearch,
    private readonly config: AppConfig,
    private readonly freshness: SearchFreshness | undefined,
    private readonly images: SearchImages,
  ) {}

  /**
   * One page of the hits of both kinds, merged by rank. Pages of queries matching
   * {@link KEPT_PAGE_MATCHES} guides or more are kept {@link KEPT_PAGE_MS} per process, as their
   * rankings are: a kept page is served only after one statement reads the current state of what
   * it shows (every guide still listed at the revision shown, with the same prerequisites' date,
   * every page live at the revision shown, every author active under the name shown); otherwise it
   * is built again. Its order and total may lag as the ranking's may (`since` says from when); its items never do.
   */
  async search(query: string, scope: SearchScope, page: Page, langid?: string): Promise<Ranked<SearchBody>> {
    if (page.offset > MAX_SEARCH_OFFSET) throw new InvalidParameterError(`Parameter 'offset' must be at most ${MAX_SEARCH_OFFSET} for search`);
    // In another language: the translations, built each time (kept pages are the default language's).
    if (langid !== undefined && langid !== DEFAULT_LANGID) return { body: (await this.searchNow(query, scope, page, langid)).body, since: null };
    const key = JSON.stringify([query, scope.guideTypes ?? null, scope.namespaces, page.limit, page.offset]);
    const kept = this.freshness ? this.kept.get(key) : undefined;
    if (kept && sameState(await this.freshness!.current(kept.shown), kept.state)) return { body: kept.body, since: kept.since };
    const [started, built] = [Date.now(), await this.searchNow(query, scope, page)];
    if (this.freshness && built.guideMatches >= KEPT_PAGE_MATCHES && page.limit <= KEPT_PAGE_LIMIT) this.kept.set(key, { body: built.body, ...shownOf(built.shown, built.body.results), since: built.since ?? started });
    return { body: built.body, since: built.since };
  }

  /**
   * The page built from the sources. Each source is asked for its best `offset + limit` hits (the
   * page of the merge can only hold those); with one source, for the page.
   */
  private async searchNow(query: string, scope: SearchScope, page: Page, langid?: string) {
    const withGuides = scope.guideTypes !== null;
    const withWikis = scope.namespaces.length > 0;
    const merged = withGuides && withWikis;
    const window: Page = merged ? { limit: page.offset + page.limit, offset: 0 } : page;
    const [guides, wikis] = await Promise.all([
      withGuides ? (langid ? this.guides.searchTranslations(langid, query, window, scope.guideTypes ?? undefined) : this.guides.search(query, window, scope.guideTypes ?? undefined)) : { total: 0, results: [] },
      withWikis ? this.wikis.search(query, scope.namespaces, window, langid) : { total: 0, results: [] },
    ]);
    const hits = merge(
      guides.results.map((guide): Hit => ({ kind: 'guide', rank: guide.rank, id: guide.guideid, guide })),
      wikis.results.map((wiki): Hit => ({ kind: 'wiki', rank: wiki.rank, id: wiki.wikiid, wiki })),
    );
    const shown = merged ? hits.slice(page.offset, page.offset + page.limit) : hits;
    const total = guides.total + wikis.total;
    const body = {
      search: query,
      limit: page.limit,
      offset: page.offset,
      totalResults: total,
      moreResults: page.offset + shown.length < total,
      results: await this.present(shown),
    };
    return { body, shown, guideMatches: guides.total, since: ('rankedAt' in guides ? guides.rankedAt : undefined) ?? null };
  }

  /**
   * Up to ten suggestions shared fairly between the doctypes, grouped in the order asked. Like
   * search pages, the suggestions for prefixes held by {@link KEPT_PAGE_MATCHES} guides' heads or
   * more are kept {@link KEPT_PAGE_MS} and served only while what they show is unchanged.
   */
  async suggest(query: string, doctypes: readonly Doctype[], langid?: string): Promise<Ranked<{ query: string; results: Presented }>> {
    const text = query.trim();
    if (!text) return { body: { query, results: [] }, since: null };
    const byId = GUIDE_ID_QUERY.exec(text);
    if (byId) return { body: { query, results: await this.reader.summaries(await this.guides.byIds([Number(byId[1])])) }, since: null };
    // In another language: its translations, never kept (kept suggestions are the default language's).
    const translated = langid !== undefined && langid !== DEFAULT_LANGID ? langid : undefined;
    const key = JSON.stringify([query, doctypes]);
    const kept = this.freshness && !translated ? this.keptSuggestions.get(key) : undefined;
    if (kept && sameState(await this.freshness!.current(kept.shown), kept.state)) return { body: kept.body, since: kept.since };
    const started = Date.now();
    let [guideMatches, since] = [0, null as number | null];
    const lists = await Promise.all(
      doctypes.map(async (doctype): Promise<Hit[]> => {
        if (doctype === 'guide') {
          const found = translated ? await this.guides.suggestTranslations(translated, text, MAX_SUGGESTIONS) : await this.guides.suggest(text, MAX_SUGGESTIONS);
          [guideMatches, since] = [found.matches, found.rankedAt ?? null];
          return found.results.map((guide) => ({ kind: 'guide', rank: 0, id: guide.guideid, guide }));
        }
        if (doctype === 'question') return []; // This service has no questions (Answers).
        const hits = await this.wikis.suggest(text, [doctype === 'topic' ? 'CATEGORY' : 'ITEM'], MAX_SUGGESTIONS, translated);
        return hits.map((wiki) => ({ kind: 'wiki', rank: wiki.rank, id: wiki.wikiid, wiki }));
      }),
    );
    const hits = balance(lists, MAX_SUGGESTIONS).flat();
    const body = { query, results: await this.present(hits) };
    if (this.freshness && !translated && guideMatches >= KEPT_PAGE_MATCHES) this.keptSuggestions.set(key, { body, ...shownOf(hits, body.results), since: since ?? started });
    return { body, since };
  }

  /** Guides as GuideSummary bodies (authors read in one query), pages as wiki results, in the order given. */
  private async present(hits: readonly Hit[]) {
    const guides = hits.flatMap((hit) => (hit.kind === 'guide' ? [hit.guide] : []));
    const imageIds = [...new Set(hits.flatMap((hit) => (hit.kind === 'wiki' && hit.wiki.image_id !== null ? [hit.wiki.image_id] : [])))];
    const [summaries, images] = await Promise.all([guides.length ? this.reader.summaries(guides) : [], imageIds.length ? this.images.objects(imageIds) : new Map<number, ImageObject>()]);
    let next = 0;
    return hits.map((hit) => (hit.kind === 'guide' ? summaries[next++]! : this.presentWiki(hit.wiki, images)));
  }

  private presentWiki(w: WikiHit, images: ReadonlyMap<number, ImageObject>) {
    const baseUrl = this.config.publicBaseUrl;
    return {
      dataType: 'wiki' as const,
      wikiid: w.wikiid,
      namespace: w.namespace,
      langid: w.langid,
      title: w.title,
      display_title: w.display_title,
      summary: w.description,
      text: w.contents || w.description,
      url: wikiUrl(w.namespace, w.title, baseUrl),
      modified_date: toUnixSeconds(w.modified_at),
      author: w.author_id ?? 0,
      image: imageOrNull(images, w.image_id),
    };
  }
}
