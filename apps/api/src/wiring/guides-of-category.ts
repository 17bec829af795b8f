import { CategoryGuides, type CategoryGuidesRead } from '@rc/catalog-http';
import type { GuideQueries } from '@rc/guides-domain';
import type { GuideReader } from '@rc/guides-http';

/** How many guides a category page lists (and featured guides). */
const LISTED = { limit: 200, offset: 0 };
const FEATURED = 'GUIDE_STARRED';

/**
 * The catalog's CategoryGuides port, answered by the guides context: its queries find a
 * category's guides (by title: categories and guides meet there) and its reader presents them.
 */
export class GuidesOfCategory extends CategoryGuides {
  constructor(
    private readonly queries: GuideQueries,
    private readonly reader: GuideReader,
  ) {
    super();
  }

  async ofCategory(title: string): Promise<CategoryGuidesRead> {
    const { guides, items } = await this.queries.categoryGuides(title, LISTED.limit);
    // A list shorter than a page holds every guide of the category, so its featured ones are
    // exactly those it flags, in the same (id) order; a longer one needs their own list.
    const featured =
      guides.length < LISTED.limit
        ? guides.filter((g) => g.flags.includes(FEATURED))
        : await this.queries.list({ order: 'ASC', category: title, withPrerequisiteOnly: true, flag: FEATURED }, LISTED);
    const shown = [...guides, ...featured];
    return {
      userIds: shown.map((g) => g.authorId),
      imageIds: shown.flatMap((g) => (g.imageId === null ? [] : [g.imageId])),
      items,
      present: (users, images) => ({ guides: this.reader.summariesWith(guides, users, images), featured: this.reader.summariesWith(featured, users, images) }),
    };
  }

  categoriesWithPublicGuides(): Promise<string[]> {
    return this.queries.categoriesWithPublicGuides();
  }
}
