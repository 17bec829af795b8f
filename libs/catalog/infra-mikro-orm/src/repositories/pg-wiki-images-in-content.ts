import type { EntityManager } from '@mikro-orm/postgresql';
import { ImagesInContent, type ImageViewer } from '@rc/media-contracts';

const intList = (ids: readonly number[]) => JSON.stringify(ids);
const IDS = 'ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)';

/**
 * Wiki pages as content that shows images (for the media context): a live page's image. Every
 * live page is public. Page bodies are built per request, so a change to an image's files needs
 * nothing dropped here.
 */
export class PgWikiImagesInContent extends ImagesInContent {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async usedAmong(ids: readonly number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.em.execute<{ id: number }[]>(`SELECT DISTINCT image_id AS id FROM wiki_pages WHERE deleted_at IS NULL AND image_id = ANY(${IDS})`, [intList(ids)]);
    return new Set(rows.map((r) => r.id));
  }

  async visibleTo(id: number, _viewer: ImageViewer): Promise<boolean> {
    return (await this.usedAmong([id])).has(id);
  }

  async changed(_ids: readonly number[]): Promise<void> {
    // Nothing keeps page bodies.
  }
}
