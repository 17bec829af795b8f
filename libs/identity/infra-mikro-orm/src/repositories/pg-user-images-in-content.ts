import type { EntityManager } from '@mikro-orm/postgresql';
import { ImagesInContent, type ImageViewer } from '@rc/media-contracts';
import { USER_STANDINGS_CHANNEL } from '@rc/shared-infra-mikro-orm';

const IDS = 'ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)';

/**
 * Users' avatars as content that shows images (for the media context): an active account's
 * avatar, which every viewer sees. A change to an avatar's files is announced as a change to its
 * users (the user standings channel), so the user objects kept by other instances are dropped.
 */
export class PgUserImagesInContent extends ImagesInContent {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async usedAmong(ids: readonly number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.em.execute<{ id: number }[]>(`SELECT DISTINCT image_id AS id FROM users WHERE status = 'active' AND image_id = ANY(${IDS})`, [JSON.stringify(ids)]);
    return new Set(rows.map((r) => r.id));
  }

  async visibleTo(id: number, _viewer: ImageViewer): Promise<boolean> {
    return (await this.usedAmong([id])).has(id);
  }

  async changed(ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await this.em.execute(`SELECT pg_notify('${USER_STANDINGS_CHANNEL}', id::text) FROM users WHERE image_id = ANY(${IDS})`, [JSON.stringify(ids)]);
  }
}
