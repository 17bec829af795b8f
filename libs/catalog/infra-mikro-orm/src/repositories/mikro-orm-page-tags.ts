import type { EntityManager } from '@mikro-orm/postgresql';
import { PageTags, type TagUse } from '@rc/catalog-contracts';

/** The tags of live pages, each with its first use. */
export class MikroOrmPageTags extends PageTags {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async firstUses(): Promise<TagUse[]> {
    const rows = await this.em.execute<{ tag: string; first: Date | string }[]>(
      `SELECT t.tag, min(t.created_at) AS first FROM wiki_tags t JOIN wiki_pages w ON w.id = t.wiki_id AND w.deleted_at IS NULL GROUP BY t.tag`,
    );
    return rows.map((r) => ({ tag: r.tag, firstUsedAt: new Date(r.first) }));
  }
}
