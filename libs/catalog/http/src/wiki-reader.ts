import { ViewWiki, WikiImages, WikiQueries, type ReadWikiTranslation, type WikiPage, type WikiSummaryView } from '@rc/catalog-domain';
import { unknownUserSummary, type Caller, type UserSummaries, type UserSummary } from '@rc/identity-contracts';
import type { ImageObject } from '@rc/media-contracts';
import type { WikiRenderer } from '@rc/shared-http';
import { presentWiki, presentWikiSummary, wikiImageIds } from './wiki.presenter.js';
import type { ShownWikiViews } from './wiki-views.js';
import { BatchedLookup } from './batched-lookup.js';

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
 * A category's guides as its page shows them, read but not yet presented: the users and images
 * they show are looked up by the page, together with its own (one lookup each for the whole page).
 */
export interface CategoryGuidesRead {
  /** The authors the guide summaries name. */
  readonly userIds: readonly number[];
  /** The images the guide summaries show. */
  readonly imageIds: readonly number[];
  readonly items: CategoryItems;
  /** The category's public guides and its featured ones, as GuideSummary bodies, given those users (a map holding at least them) and images. */
  present(users: ReadonlyMap<number, UserSummary>, images: ReadonlyMap<number, ImageObject>): { readonly guides: unknown[]; readonly featured: unknown[] };
}

/**
 * What the catalog reads from the guides context (the app binds it to the guides' queries and
 * presenter): a category's guides, the parts and tools they list, and which categories hold public
 * guides. Categories and guides meet by title.
 */
export abstract class CategoryGuides {
  /** The category's public guides (the featured ones among them), and their parts and tools: one query (two for a category of more guides than a page lists). */
  abstract ofCategory(title: string): Promise<CategoryGuidesRead>;
  /** One query. */
  abstract categoriesWithPublicGuides(): Promise<string[]>;
}

const NO_GUIDES: CategoryGuidesRead = { userIds: [], imageIds: [], items: { parts: [], tools: [] }, present: () => ({ guides: [], featured: [] }) };

/**
 * Builds page bodies: the page, its place in the tree, its tags, related pages and authors, and
 * for categories their guides, parts and tools; a constant number of queries whatever their sizes.
 * After the page: its parts (one query) and, for a category, its guides together; then the users
 * (authors and guide authors) and the images (the page's, its tree's, related pages' and guides')
 * together, one lookup each.
 */
export class WikiReader {
  /** The authors (with their standing) of the pages built at once, looked up together. */
  private readonly pageUsers: BatchedLookup<UserSummary>;
  /** The images of the pages built at once, looked up together. */
  private readonly pageImages: BatchedLookup<ImageObject>;

  constructor(
    private readonly view: ViewWiki,
    private readonly queries: WikiQueries,
    private readonly guides: CategoryGuides,
    private readonly renderer: WikiRenderer,
    private readonly config: { readonly publicBaseUrl: string },
    /** The authors, with their standing (reputation, team ids). */
    private readonly users: UserSummaries,
    /** The images pages show, as the media context has them: one lookup per body or list. */
    private readonly images: WikiImages,
    /** The pages' translations (`langid` reads of `legacyCategory`); none: every page reads in its own language. */
    private readonly translations: ReadWikiTranslation | null = null,
    /** The views pages show (see ShownWikiViews); by default the stored total read with each body. */
    private readonly views: Pick<ShownWikiViews, 'settle'> = { settle: (_pageId, stored) => stored },
    /** The server the current request's statements go to (see BatchedLookup); by default one for all. */
    routeOf: () => unknown = () => null,
  ) {
    this.pageUsers = new BatchedLookup((ids) => this.users.of(ids, { standings: true }), routeOf);
    this.pageImages = new BatchedLookup((ids) => this.images.objects(ids), routeOf);
  }

  async present(page: WikiPage, viewer: Caller | null) {
    const s = page.state;
    const [parts, guides] = await Promise.all([
      // Up to the revision shown: an old revision lists the authors it had.
      this.queries.parts({ id: page.id, namespace: s.namespace, revisionid: s.revisionid, related: s.related }),
      s.namespace === 'CATEGORY' ? this.guides.ofCategory(s.title) : NO_GUIDES,
    ]);
    const { ancestors, children, related, contributors } = parts;
    // Looked up with those of the other pages being built at the same moment.
    const [users, images] = await Promise.all([
      this.pageUsers.of([...contributors.map((c) => c.userId), ...guides.userIds]),
      this.pageImages.of([...wikiImageIds(page, ancestors, children, related), ...guides.imageIds]),
    ]);
    const shown = guides.present(users, images);
    return presentWiki(
      page,
      {
        ancestors,
        children,
        tags: parts.tags,
        guides: shown.guides,
        featuredGuides: shown.featured,
        canEdit: page.canEdit(viewer ? { userId: viewer.userId, isAdmin: viewer.role === 'Admin' } : null),
        related,
        contributors,
        users,
        items: guides.items,
        views: this.views.settle(page.id, parts.views),
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
