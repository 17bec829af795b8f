import type { EntityManager } from '@mikro-orm/postgresql';
import { ImagesInContent, type ImageViewer } from '@rc/media-contracts';
import { intArray } from './sql.js';

/** Guides (not deleted) showing one of the images `$ids` (a JSON list): the main image or a step's. */
const GUIDES_SHOWING = (ids: string) => `SELECT g.id FROM guides g WHERE g.deleted_at IS NULL AND g.image_id = ANY(${ids})
  UNION SELECT s.guide_id FROM guide_steps s JOIN guides g ON g.id = s.guide_id
   WHERE g.deleted_at IS NULL AND s.media -> 'imageIds' @> ANY(ARRAY(SELECT jsonb_build_array(x) FROM unnest(${ids}) AS x))`;

/**
 * The guides as content that shows images (for the media context): a guide's main image and its
 * steps' images. A change to an image's files bumps the `media_stamp` of the guides showing it,
 * which changes their version: their stored and cached bodies are rebuilt, on every instance
 * (the version trigger announces it).
 */
export class PgGuideImagesInContent extends ImagesInContent {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async usedAmong(ids: readonly number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const list = intArray(ids);
    const rows = await this.em.execute<{ id: number }[]>(
      `SELECT g.image_id AS id FROM guides g WHERE g.deleted_at IS NULL AND g.image_id = ANY(${list.sql})
       UNION SELECT e.id FROM guide_steps s JOIN guides g ON g.id = s.guide_id,
         LATERAL (SELECT (jsonb_array_elements_text(s.media -> 'imageIds'))::int AS id) e
        WHERE g.deleted_at IS NULL AND s.media ->> 'type' = 'image' AND e.id = ANY(${list.sql})`,
      [list.param, list.param],
    );
    return new Set(rows.map((r) => r.id));
  }

  async visibleTo(id: number, viewer: ImageViewer): Promise<boolean> {
    const list = intArray([id]);
    const rows = await this.em.execute<{ ok: number }[]>(
      `SELECT 1 AS ok FROM guides g WHERE g.id IN (${GUIDES_SHOWING(list.sql)}) AND (g.is_public OR ?::boolean OR g.author_id = ?::int) LIMIT 1`,
      [list.param, list.param, viewer.isAdmin, viewer.userId ?? 0],
    );
    return rows.length > 0;
  }

  async changed(ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    const list = intArray(ids);
    await this.em.execute(`UPDATE guides SET media_stamp = media_stamp + 1 WHERE id IN (${GUIDES_SHOWING(list.sql)})`, [list.param, list.param]);
  }
}
