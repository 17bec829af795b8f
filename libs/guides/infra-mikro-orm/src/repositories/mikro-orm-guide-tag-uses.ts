import type { EntityManager } from '@mikro-orm/postgresql';

/** The tags of public, live guides, each once with its first use (tags of private guides stay unseen). */
export class MikroOrmGuideTagUses {
  constructor(private readonly em: EntityManager) {}

  async firstUses(): Promise<{ tag: string; firstUsedAt: Date }[]> {
    const rows = await this.em.execute<{ tag: string; first: Date | string }[]>(
      `SELECT t.tag, min(t.created_at) AS first FROM guide_tags t JOIN guides g ON g.id = t.guide_id AND g.is_public AND g.deleted_at IS NULL GROUP BY t.tag`,
    );
    return rows.map((r) => ({ tag: r.tag, firstUsedAt: new Date(r.first) }));
  }
}
