import { CategoryGuides, type CategoryItems } from '@rc/catalog-http';
import type { GuideQueries } from '@rc/guides-domain';
import type { GuideReader } from '@rc/guides-http';

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

  async inCategory(title: string, featuredOnly: boolean): Promise<unknown[]> {
    const views = await this.queries.list({ order: 'ASC', category: title, withPrerequisiteOnly: true, ...(featuredOnly ? { flag: 'GUIDE_STARRED' } : {}) }, { limit: 200, offset: 0 });
    return this.reader.summaries(views);
  }

  items(title: string): Promise<CategoryItems> {
    return this.queries.categoryItems(title);
  }

  categoriesWithPublicGuides(): Promise<string[]> {
    return this.queries.categoriesWithPublicGuides();
  }
}
