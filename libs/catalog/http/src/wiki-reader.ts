import { ViewWiki, WikiImages, WikiQueries, WikiTags, type ReadWikiTranslation, type WikiPage, type WikiSummaryView } from '@rc/catalog-domain';
import { unknownUserSummary, type Caller, type UserSummaries, type UserSummary } from '@rc/identity-contracts';
import type { ImageObject } from '@rc/media-contracts';
import type { WikiRenderer } from '@rc/shared-http';
import { presentWiki, presentWikiSummary, wikiImageIds } from './wiki.presenter.js';
import type { ShownWikiViews } from './wiki-views.js';

/**
 * A part or tool as a category lists it: the items of the category's public guides merged by name
 * (the guides context merges them: see its CategoryItemView).
 */
export interface CategoryItem {
  readonly text: string;
  readonly type: string;
  readonly quantity: number;
  readonly url: string | null;
  readonly thumbnail: string | null;
  readonly isoptional: boolean;
  readonly featured: boolean;
  /** How many of the category's public guides list the item. */
  readonly guides: number;
}

/** Both lists are ordered by the number of guides listing the item, most first, then by name. */
export interface CategoryItems {
  readonly parts: CategoryItem[];
  readonly tools: CategoryItem[];
}

/**
 * What the catalog reads from the guides context (the app binds it to the guides' queries and
 * reader): a category's guides as GuideSummary bodies, the parts and tools they list, and which
 * categories hold public guides. Categories and guides meet by title.
 */
export abstract class CategoryGuides {
  /** The category's public guides (the featured ones only, when asked): a query, then their authors' names in one more. */
  abstract inCategory(title: string, featuredOnly: boolean): Promise<unknown[]>;
  /** One query. */
  abstract items(title: string): Promise<CategoryItems>;
  /** One query. */
  abstract categoriesWithPublicGuides(): Promise<string[]>;
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
    private readonly renderer: WikiRenderer,
    private readonly config: { readonly publicBaseUrl: string },
    /** The authors, with their standing (reputation, team ids). */
    private readonly users: UserSummaries,
    /** The images pages show, as the media context has them: one lookup per body or list. */
    private readonly images: WikiImages,
    /** The pages' translations (`langid` reads of `legacyCategory`); none: every page reads in its own language. */
    private readonly translations: ReadWikiTranslation | null = null,
    /** The views pages show (see ShownWikiViews); by default the stored total, read with each body. */
    private readonly views: Pick<ShownWikiViews, 'of'> = { of: (pageId) => this.queries.views(pageId) },
  ) {}

  async present(page: WikiPage, viewer: Caller | null) {
    const category = page.state.namespace === 'CATEGORY';
    const [ancestors, children, tags, guides, featured, items, related, contributors, views] = await Promise.all([
      category ? this.queries.ancestors(page.id) : [],
      category ? this.queries.children(page.id) : [],
      this.tags.list(page.id),
      category ? this.guides.inCategory(page.state.title, false) : [],
      category ? this.guides.inCategory(page.state.title, true) : [],
      category ? this.guides.items(page.state.title) : NO_ITEMS,
      page.state.related.length ? this.queries.byRefs(page.state.related) : [],
      // Up to the revision shown: an old revision lists the authors it had.
      this.queries.contributors(page.id, page.state.revisionid),
      this.views.of(page.id),
    ]);
    const editorIds = contributors.map((c) => c.userId);
    const [users, images] = await Promise.all([
      editorIds.length ? this.users.of(editorIds, { standings: true }) : new Map<number, UserSummary>(),
      this.imagesOf(wikiImageIds(page, ancestors, children, related)),
    ]);
    return presentWiki(
      page,
      {
        ancestors,
        children,
        tags,
        guides,
        featuredGuides: featured,
        canEdit: page.canEdit(viewer ? { userId: viewer.userId, isAdmin: viewer.role === 'Admin' } : null),
        related,
        contributors,
        users,
        items,
        views,
      },
      { baseUrl: this.config.publicBaseUrl, renderer: this.renderer, images },
    );
  }

  /** These users as UserSummary objects (with their standing), in one lookup; a placeholder for a gone account. */
  async authors(userIds: readonly number[]): Promise<(userId: number) => UserSummary> {
    const ids = [...new Set(userIds)];
    const users = ids.length ? await this.users.of(ids, { standings: true }) : new Map<number, UserSummary>();
    return (id) => users.get(id) ?? unknownUserSummary(id, this.config.publicBaseUrl);
  }

  /** Whether `userId` names an active account (a USER page is titled by one). */
  async userExists(userId: number): Promise<boolean> {
    return (await this.users.of([userId], { standings: false })).has(userId);
  }

  async summaries(pages: readonly WikiSummaryView[]) {
    const images = await this.imagesOf(pages.flatMap((p) => (p.imageId === null ? [] : [p.imageId])));
    return pages.map((p) => presentWikiSummary(p, this.config.publicBaseUrl, images));
  }

  private async imagesOf(ids: readonly number[]): Promise<ReadonlyMap<number, ImageObject>> {
    const unique = [...new Set(ids)];
    return unique.length ? this.images.objects(unique) : new Map();
  }

  /** The titles of the categories holding a public guide (for `GET /categories?requireGuides`). */
  async categoriesWithPublicGuides(): Promise<Set<string>> {
    return new Set(await this.guides.categoriesWithPublicGuides());
  }

  /**
   * `GET /categories/{name}`: the older category shape (reference §3.9). `langid`: the page as that
   * language shows it (its translation, or its own language when it has none; `locale` says which).
   */
  async legacyCategory(name: string, viewer: Caller | null, langid?: string) {
    const current = await this.view.execute({ namespace: 'CATEGORY', title: name });
    const page = langid !== undefined && this.translations ? await this.translations.execute(current, langid) : current;
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
