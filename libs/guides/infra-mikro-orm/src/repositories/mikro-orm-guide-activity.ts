import type { EntityManager } from '@mikro-orm/postgresql';
import type { GuideEvent } from '@rc/guides-contracts';
import { CategoryDirectory, GuideEventOutbox, GuideMarks, GuideTags } from '@rc/guides-domain';

export class MikroOrmGuideMarks extends GuideMarks {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(kind: 'favorite' | 'completion', userId: number, guideId: number, at: Date): Promise<boolean> {
    const rows = await this.em.execute('INSERT INTO guide_marks (kind, user_id, guide_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1 AS added', [
      kind,
      userId,
      guideId,
      at,
    ]);
    return rows.length > 0;
  }

  async remove(kind: 'favorite' | 'completion', userId: number, guideId: number): Promise<boolean> {
    const rows = await this.em.execute('DELETE FROM guide_marks WHERE kind = ? AND user_id = ? AND guide_id = ? RETURNING 1 AS removed', [kind, userId, guideId]);
    return rows.length > 0;
  }
}

export class MikroOrmGuideTags extends GuideTags {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(guideId: number): Promise<string[]> {
    return (await this.em.execute<{ tag: string }[]>('SELECT tag FROM guide_tags WHERE guide_id = ? ORDER BY tag', [guideId])).map((r) => r.tag);
  }

  async add(guideId: number, tag: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute('INSERT INTO guide_tags (guide_id, tag, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1 AS added', [guideId, tag, at]);
    return rows.length > 0;
  }

  async remove(guideId: number, tag: string): Promise<boolean> {
    return (await this.em.execute('DELETE FROM guide_tags WHERE guide_id = ? AND tag = ? RETURNING 1 AS removed', [guideId, tag])).length > 0;
  }
}

/** Events go to `guide_events_outbox` inside the caller's transaction: committed with the change, or not at all. */
export class MikroOrmGuideEventOutbox extends GuideEventOutbox {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async publish(event: GuideEvent): Promise<void> {
    await this.em.execute('INSERT INTO guide_events_outbox (type, payload, created_at, attempts) VALUES (?, ?::jsonb, ?, 0)', [event.type, JSON.stringify(event), new Date(event.at * 1000)]);
  }
}

/** Categories are the catalog context's CATEGORY pages; the guides context reads only their titles. */
export class CatalogCategoryDirectory extends CategoryDirectory {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async exists(title: string): Promise<boolean> {
    const [row] = await this.em.execute<{ found: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM wiki_pages WHERE namespace = 'CATEGORY' AND title = ? AND deleted_at IS NULL) AS found`,
      [title],
    );
    return row!.found;
  }
}
