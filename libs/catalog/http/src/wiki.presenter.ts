import type { WikiContributor, WikiPage, WikiSummaryView } from '@rc/catalog-domain';
import { unknownUserSummary, type UserSummary } from '@rc/identity-contracts';
import { imageOrNull, type ImageObject } from '@rc/media-contracts';
import type { WikiRenderer } from '@rc/shared-http';
import { toUnixSeconds } from '@rc/shared-kernel';
import type { CategoryItem, CategoryItems } from './wiki-reader.js';

export function wikiUrl(namespace: string, title: string, baseUrl: string): string {
  const path = encodeURIComponent(title.replace(/ /g, '_'));
  const folder = { CATEGORY: 'Device', USER: 'User', TEAM: 'Team' }[namespace] ?? 'Wiki';
  return `${baseUrl}/${folder}/${path}`;
}

/** WikiSummary (reference §3.10): list items, ancestors, children. */
export function presentWikiSummary(w: WikiSummaryView, baseUrl: string, images: ReadonlyMap<number, ImageObject>) {
  return {
    dataType: 'wiki' as const,
    wikiid: w.id,
    namespace: w.namespace,
    title: w.title,
    display_title: w.displayTitle,
    modified_date: toUnixSeconds(w.modifiedAt),
    langid: w.langid,
    url: wikiUrl(w.namespace, w.title, baseUrl),
    summary: w.description,
    text: w.description,
    author: w.authorId,
    image: imageOrNull(images, w.imageId),
  };
}

export interface WikiExtras {
  readonly ancestors: WikiSummaryView[];
  readonly children: WikiSummaryView[];
  readonly guides: unknown[];
  readonly featuredGuides: unknown[];
  readonly tags: string[];
  readonly canEdit: boolean;
  /** The live pages among the page's related pages, in the page's order. */
  readonly related: WikiSummaryView[];
  /** The editors of the page's revisions (up to the one shown), creator first, and their accounts. */
  readonly contributors: WikiContributor[];
  /** How many times the page was viewed (as stored: views are written in batches). */
  readonly views: number;
  /** Their summaries (with their standing), by user id: active accounts only. */
  readonly users: ReadonlyMap<number, UserSummary>;
  /** CATEGORY: the parts and tools of the category's public guides. */
  readonly items: CategoryItems;
}

const slug = (title: string) => encodeURIComponent(title.replace(/ /g, '_'));

/**
 * The §3.7 fields of a merged item; notes are guide-specific, so a category has none. `url` and
 * `thumbnail` are strings, empty when the item has none, as the guides' parts and tools send them.
 */
function itemFields(item: CategoryItem) {
  return {
    text: item.text,
    type: item.type,
    quantity: item.quantity,
    notes: null,
    url: item.url ?? '',
    thumbnail: item.thumbnail ?? '',
    isoptional: item.isoptional,
    featured: item.featured,
  };
}

/**
 * A part of a category (an entry of `parts.categories`): the legacy `{tag, count, url}` (the part's
 * name, how many of the category's guides list it, its URL) with the §3.7 item fields.
 */
export function presentCategoryPart(item: CategoryItem) {
  return { tag: item.text, count: item.guides, ...itemFields(item) };
}

/** A tool of a category: the §3.10 `{title, target_url, image_url, itemcode}` with the §3.7 item fields and `count`. */
export function presentCategoryTool(item: CategoryItem) {
  return { title: item.text, target_url: item.url, image_url: item.thumbnail, itemcode: null, ...itemFields(item), count: item.guides };
}

/**
 * `authors` (reference §3.10): each editor as a UserSummary with `percent` (their share of the
 * revisions, rounded), `profile_url` and `avatar_url`; the creator first.
 */
export function presentAuthors(contributors: readonly WikiContributor[], users: ReadonlyMap<number, UserSummary>, baseUrl: string) {
  const total = contributors.reduce((sum, c) => sum + c.revisions, 0);
  return contributors.map((c) => {
    const summary = users.get(c.userId) ?? unknownUserSummary(c.userId, baseUrl);
    return { ...summary, percent: total ? Math.round((100 * c.revisions) / total) : 0, profile_url: summary.url, avatar_url: null };
  });
}

/** The full Wiki (reference §3.10), with the fields that apply to its namespace. */
/** The Image objects a page body shows (its own, its ancestors', children's and related pages'), by id. */
export function wikiImageIds(page: WikiPage, ...summaries: (readonly WikiSummaryView[])[]): number[] {
  return [page.state.imageId, ...summaries.flat().map((w) => w.imageId)].filter((id): id is number => id !== null);
}

export function presentWiki(page: WikiPage, extra: WikiExtras, ctx: { baseUrl: string; renderer: WikiRenderer; images: ReadonlyMap<number, ImageObject> }) {
  const s = page.state;
  const category = s.namespace === 'CATEGORY';
  return {
    wikiid: s.id,
    namespace: s.namespace,
    title: s.title,
    display_title: s.displayTitle,
    page_title: s.details.pageTitle ?? s.displayTitle,
    revisionid: s.revisionid,
    modified_date: toUnixSeconds(s.modifiedAt),
    created_date: toUnixSeconds(s.createdAt),
    langid: s.langid,
    available_langids: page.availableLangids,
    url: wikiUrl(s.namespace, s.title, ctx.baseUrl),
    description: s.description,
    contents_raw: s.contents,
    contents_rendered: ctx.renderer.block(s.contents),
    image: imageOrNull(ctx.images, s.imageId),
    author: s.authorId,
    authors: presentAuthors(extra.contributors, extra.users, ctx.baseUrl),
    flags: Object.fromEntries(s.flags.map((flagid) => [flagid, { flagid }])),
    info: s.info.map((row) => ({ ...row })),
    tags: extra.tags,
    linked_wikis: [],
    related_wikis: extra.related.map((r) => presentWikiSummary(r, ctx.baseUrl, ctx.images)),
    can_edit: extra.canEdit,
    source_revisionid: s.details.sourceRevisionid,
    table_of_contents: s.details.tableOfContents,
    ...(s.namespace === 'ITEM' ? { suppliers: s.details.suppliers.map((row) => ({ ...row })) } : {}),
    ...(category
      ? {
          ancestors: extra.ancestors.map((a) => presentWikiSummary(a, ctx.baseUrl, ctx.images)),
          parent: extra.ancestors[0]?.title ?? null,
          children: extra.children.map((c) => presentWikiSummary(c, ctx.baseUrl, ctx.images)),
          guides: extra.guides,
          featured_guides: extra.featuredGuides,
          category_lists: {},
          category_info: {},
          documents: s.details.documentIds.map((documentid) => ({ documentid })),
          diagrams: [],
          parts: { url: `${ctx.baseUrl}/Parts/${slug(s.title)}`, categories: extra.items.parts.map(presentCategoryPart) },
          tools: extra.items.tools.map(presentCategoryTool),
          repairability_score: s.details.repairabilityScore,
          solutions_url: `${ctx.baseUrl}/Answers/Device/${slug(s.title)}`,
          is_troubleshooting: false,
          maintenance_schedule: s.details.maintenanceSchedule,
        }
      : {}),
    views: extra.views,
  };
}
