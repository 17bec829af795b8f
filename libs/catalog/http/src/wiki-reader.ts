import { ViewWiki, WikiQueries, WikiTags, type WikiPage, type WikiSummaryView } from '@rc/catalog-domain';
import type { CategoryItems, GuideSummaryView } from '@rc/guides-domain';
import type { GetUsers, Principal, User, UserId } from '@rc/identity-domain';
import type { AppConfig } from '../config/config.js';
import type { WikiRenderer } from '../guides/guide.presenter.js';
import type { GuideReader } from '../guides/guide-reader.js';
import type { UserStanding, UserStandings } from '../people/user-standings.js';
import { presentWiki, presentWikiSummary } from './wiki.presenter.js';

/**
 * What the catalog reads from the guides context (through its read port, composed here): a
 * category's guides and the parts and tools they list, and which categories hold public guides.
 * Categories and guides meet by title. Each is one query.
 */
export interface CategoryGuides {
  inCategory(title: string, featuredOnly: boolean): Promise<GuideSummaryView[]>;
  items(title: string): Promise<CategoryItems>;
  categoriesWithPublicGuides(): Promise<string[]>;
}

const NO_ITEMS: CategoryItems = { parts: [], tools: [] };

/**
 * Builds page bodies: the page, its place in the tree, its tags, related pages and authors, and
 * for categories their guides, parts and tools; a constant number of queries whatever their sizes.
 */
export class WikiReader {
  constructor(
    private readonly view: ViewWiki,
    private readonly queries: WikiQueries,
    private readonly tags: WikiTags,
    private readonly guides: CategoryGuides,
    private readonly guideReader: GuideReader,
    private readonly renderer: WikiRenderer,
    private readonly config: AppConfig,
    private readonly users: GetUsers,
    /** The authors' standing (reputation, team ids); without it, authors show none. */
    private readonly standings?: UserStandings,
  ) {}

  async present(page: WikiPage, viewer: Principal | null) {
    const category = page.state.namespace === 'CATEGORY';
    const [ancestors, children, tags, guides, featured, items, related, contributors] = await Promise.all([
      category ? this.queries.ancestors(page.id) : [],
      category ? this.queries.children(page.id) : [],
      this.tags.list(page.id),
      category ? this.guides.inCategory(page.state.title, false) : [],
      category ? this.guides.inCategory(page.state.title, true) : [],
      category ? this.guides.items(page.state.title) : NO_ITEMS,
      page.state.related.length ? this.queries.byRefs(page.state.related) : [],
      // Up to the revision shown: an old revision lists the authors it had.
      this.queries.contributors(page.id, page.state.revisionid),
    ]);
    const editorIds = contributors.map((c) => c.userId);
    const [users, standings, guideSummaries, featuredSummaries] = await Promise.all([
      editorIds.length ? this.users.execute(editorIds as UserId[]) : new Map<number, User>(),
      editorIds.length && this.standings ? this.standings.of(editorIds) : new Map<number, UserStanding>(),
      this.guideReader.summaries(guides),
      this.guideReader.summaries(featured),
    ]);
    return presentWiki(
      page,
      {
        ancestors,
        children,
        tags,
        guides: guideSummaries,
        featuredGuides: featuredSummaries,
        canEdit: page.canEdit(viewer ? { userId: viewer.userId, isAdmin: viewer.role === 'Admin' } : null),
        related,
        contributors,
        users,
        standings,
        items,
      },
      { baseUrl: this.config.publicBaseUrl, renderer: this.renderer },
    );
  }

  summaries(pages: readonly WikiSummaryView[]) {
    return pages.map((p) => presentWikiSummary(p, this.config.publicBaseUrl));
  }

  /** The titles of the categories holding a public guide (for `GET /categories?requireGuides`). */
  async categoriesWithPublicGuides(): Promise<Set<string>> {
    return new Set(await this.guides.categoriesWithPublicGuides());
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
      // The legacy `[{text, url}]`, within the same items the full page lists.
      tools: full.tools ?? [],
      guides: full.guides,
      contents_raw: s.contents,
      contents_rendered: full.contents_rendered,
    };
  }
}
