import type { WikiPage, WikiSummaryView } from '@rc/catalog-domain';
import { toUnixSeconds } from '@rc/shared-kernel';
import { presentImage, type WikiRenderer } from '../guides/guide.presenter.js';

export function wikiUrl(namespace: string, title: string, baseUrl: string): string {
  const path = encodeURIComponent(title.replace(/ /g, '_'));
  return namespace === 'CATEGORY' ? `${baseUrl}/Device/${path}` : `${baseUrl}/Wiki/${path}`;
}

/** WikiSummary (reference §3.10): list items, ancestors, children. */
export function presentWikiSummary(w: WikiSummaryView, baseUrl: string) {
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
    image: presentImage(w.imageId, baseUrl),
  };
}

export interface WikiExtras {
  readonly ancestors: WikiSummaryView[];
  readonly children: WikiSummaryView[];
  readonly guides: unknown[];
  readonly featuredGuides: unknown[];
  readonly tags: string[];
  readonly canEdit: boolean;
}

/** The full Wiki (reference §3.10), with the fields that apply to its namespace. */
export function presentWiki(page: WikiPage, extra: WikiExtras, ctx: { baseUrl: string; renderer: WikiRenderer }) {
  const s = page.state;
  const category = s.namespace === 'CATEGORY';
  return {
    wikiid: s.id,
    namespace: s.namespace,
    title: s.title,
    display_title: s.displayTitle,
    page_title: s.displayTitle,
    revisionid: s.revisionid,
    modified_date: toUnixSeconds(s.modifiedAt),
    created_date: toUnixSeconds(s.createdAt),
    langid: s.langid,
    available_langids: [s.langid],
    url: wikiUrl(s.namespace, s.title, ctx.baseUrl),
    description: s.description,
    contents_raw: s.contents,
    contents_rendered: ctx.renderer.block(s.contents),
    image: presentImage(s.imageId, ctx.baseUrl),
    author: s.authorId,
    authors: [],
    flags: Object.fromEntries(s.flags.map((flagid) => [flagid, { flagid }])),
    info: s.info.map((row) => ({ ...row })),
    tags: extra.tags,
    linked_wikis: [],
    related_wikis: [],
    can_edit: extra.canEdit,
    ...(category
      ? {
          ancestors: extra.ancestors.map((a) => presentWikiSummary(a, ctx.baseUrl)),
          parent: extra.ancestors[0]?.title ?? null,
          children: extra.children.map((c) => presentWikiSummary(c, ctx.baseUrl)),
          guides: extra.guides,
          featured_guides: extra.featuredGuides,
          category_lists: {},
          category_info: {},
          documents: [],
          diagrams: [],
          parts: { url: `${ctx.baseUrl}/Parts/${encodeURIComponent(s.title.replace(/ /g, '_'))}`, categories: [] },
          tools: [],
          repairability_score: null,
          solutions_url: `${ctx.baseUrl}/Answers/Device/${encodeURIComponent(s.title.replace(/ /g, '_'))}`,
          is_troubleshooting: false,
          maintenance_schedule: [],
        }
      : {}),
  };
}
