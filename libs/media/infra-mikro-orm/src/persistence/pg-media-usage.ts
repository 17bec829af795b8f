import type { EntityManager } from '@mikro-orm/postgresql';
import { MediaUsage, type MediaKind, type MediaViewer } from '@rc/media-domain';
import { intArray } from './sql.js';

export interface RecordedUse {
  readonly kind: MediaKind;
  readonly id: number;
}

/**
 * Uses of media recorded by the contexts that own content (a guide's steps, a wiki page's
 * image...): each piece of content (`context` + `ref`) replaces its list whenever it is saved,
 * saying whether it is public and, if not, who may view it. Implements `MediaUsage` from these rows.
 */
export class PgMediaUsageRegistry extends MediaUsage {
  constructor(private readonly em: EntityManager) {
    super();
  }

  /** The media one piece of content uses now (replacing what it used before). */
  async replace(context: string, ref: string, uses: readonly RecordedUse[], visibility: { public: boolean; viewerIds?: readonly number[] }): Promise<void> {
    await this.em.execute('DELETE FROM media_usages WHERE context = ? AND ref = ?', [context, ref]);
    if (!uses.length) return;
    const viewers = intArray(visibility.viewerIds ?? []);
    await this.em.execute(
      `INSERT INTO media_usages (kind, media_id, context, ref, public, viewer_ids)
       SELECT DISTINCT x.kind, x.id, ?, ?, ?, ${viewers.sql} FROM jsonb_to_recordset(?::jsonb) AS x(kind text, id int)`,
      [context, ref, visibility.public, viewers.param, JSON.stringify(uses)],
    );
  }

  async usedAmong(kind: MediaKind, ids: readonly number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const list = intArray(ids);
    const rows = await this.em.execute<{ media_id: number }[]>(`SELECT DISTINCT media_id FROM media_usages WHERE kind = ? AND media_id = ANY(${list.sql})`, [kind, list.param]);
    return new Set(rows.map((r) => r.media_id));
  }

  async visibleThroughContent(kind: MediaKind, id: number, viewer: MediaViewer): Promise<boolean> {
    const rows = await this.em.execute<{ ok: number }[]>(
      'SELECT 1 AS ok FROM media_usages WHERE kind = ? AND media_id = ? AND (public OR ?::int = ANY(viewer_ids)) LIMIT 1',
      [kind, id, viewer.userId ?? 0],
    );
    return rows.length > 0;
  }
}
