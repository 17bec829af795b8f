import { ViewWiki, WikiQueries, WikiTags, type WikiPage, type WikiSummaryView } from '@rc/catalog-domain';
import type { GuideSummaryView } from '@rc/guides-domain';
import type { Principal } from '@rc/identity-domain';
import type { AppConfig } from '../config/config.js';
import type { WikiRenderer } from '../guides/guide.presenter.js';
import type { GuideReader } from '../guides/guide-reader.js';
import { presentWiki, presentWikiSummary } from './wiki.presenter.js';

/** The guides of a category, as the guides context lists them (read across contexts by title). */
export interface CategoryGuides {
  inCategory(title: string, featuredOnly: boolean): Promise<GuideSummaryView[]>;
}

/** Builds page bodies: the page, its place in the tree, its tags and (for categories) its guides. */
export class WikiReader {
  constructor(
    private readonly view: ViewWiki,
    private readonly queries: WikiQueries,
    private readonly tags: WikiTags,
    private readonly guides: CategoryGuides,
    private readonly guideReader: GuideReader,
    private readonly renderer: WikiRenderer,
    private readonly config: AppConfig,
  ) {}

  async present(page: WikiPage, viewer: Principal | null) {
    const category = page.state.namespace === 'CATEGORY';
    const [ancestors, children, tags, guides, featured] = await Promise.all([
      category ? this.queries.ancestors(page.id) : [],
      category ? this.queries.children(page.id) : [],
      this.tags.list(page.id),
      category ? this.guides.inCategory(page.state.title, false) : [],
      category ? this.guides.inCategory(page.state.title, true) : [],
    ]);
    return presentWiki(
      page,
      {
        ancestors,
        children,
        tags,
        guides: await this.guideReader.summaries(guides),
        featuredGuides: await this.guideReader.summaries(featured),
        canEdit: page.canEdit(viewer ? { userId: viewer.userId, isAdmin: viewer.role === 'Admin' } : null),
      },
      { baseUrl: this.config.publicBaseUrl, renderer: this.renderer },
    );
  }

  summaries(pages: readonly WikiSummaryView[]) {
    return pages.map((p) => presentWikiSummary(p, this.config.publicBaseUrl));
  }

  /** `GET /categories/{name}`: the older category shape (reference §3.9). */
  async legacyCategory(name: string, viewer: Principal | null) {
    const page = await this.view.execute({ namespace: 'CATEGORY', title: name });
    const full = await this.present(page, viewer);
    const s = page.state;
    return {
      title: s.title,
      display_title: s.displayTitle,
      locale: s.langid,
      topic_info: { name: s.title, manufacturer: null, introduced: null, discontinued: null },
      image: full.image,
      description: s.description,
      flags: s.flags,
      categories: (full.ancestors ?? []).map((a) => a.title).reverse(),
      ancestors: (full.ancestors ?? []).map((a) => a.title),
      children: (full.children ?? []).map((c) => c.title),
      solutions: { url: full.solutions_url, count: 0 },
      parts: full.parts,
      tools: [],
      guides: full.guides,
      contents_raw: s.contents,
      contents_rendered: full.contents_rendered,
    };
  }
}
