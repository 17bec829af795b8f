import type { EntityManager } from '@mikro-orm/postgresql';
import { UploadAllowance, type AllowanceLimits, type SlotDecision } from '@rc/media-domain';
import { toNumber } from './sql.js';

/**
 * The rate limit and the quota as one row per user, changed by single conditional statements:
 * concurrent uploads on any number of instances each see the others' counts (the row lock of
 * the UPDATE orders them), so neither limit can be passed by racing.
 */
export class PgUploadAllowance extends UploadAllowance {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async takeUploadSlot(userId: number, now: Date, limits: AllowanceLimits): Promise<SlotDecision> {
    if (!limits.uploadsPerWindow) return { ok: true };
    const size = limits.windowSeconds * 1000;
    const windowStart = new Date(Math.floor(now.getTime() / size) * size);
    const rows = await this.em.execute<{ uploads: number }[]>(
      `INSERT INTO media_upload_allowances AS a (user_id, window_start, uploads, stored_bytes) VALUES (?, ?, 1, 0)
       ON CONFLICT (user_id) DO UPDATE SET
         uploads = CASE WHEN a.window_start = excluded.window_start THEN a.uploads + 1 ELSE 1 END,
         window_start = excluded.window_start
       WHERE a.window_start <> excluded.window_start OR a.uploads < ?
       RETURNING a.uploads`,
      [userId, windowStart, limits.uploadsPerWindow],
    );
    if (rows.length) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + size - now.getTime()) / 1000)) };
  }

  async reserveBytes(userId: number, bytes: number, limits: AllowanceLimits): Promise<boolean> {
    const rows = await this.em.execute<{ stored_bytes: string }[]>(
      `INSERT INTO media_upload_allowances AS a (user_id, window_start, uploads, stored_bytes) VALUES (?, 'epoch', 0, ?)
       ON CONFLICT (user_id) DO UPDATE SET stored_bytes = a.stored_bytes + excluded.stored_bytes
       WHERE ?::bigint = 0 OR a.stored_bytes + excluded.stored_bytes <= ?::bigint
       RETURNING a.stored_bytes`,
      [userId, bytes, limits.quotaBytes, limits.quotaBytes],
    );
    if (!rows.length) return false;
    // A first upload larger than the quota inserts its row: undo that one.
    if (limits.quotaBytes && toNumber(rows[0]!.stored_bytes) > limits.quotaBytes) {
      await this.releaseBytes(userId, bytes);
      return false;
    }
    return true;
  }

  async releaseBytes(userId: number, bytes: number): Promise<void> {
    await this.em.execute('UPDATE media_upload_allowances SET stored_bytes = greatest(0, stored_bytes - ?) WHERE user_id = ?', [bytes, userId]);
  }

  async storedBytes(userId: number): Promise<number> {
    const [row] = await this.em.execute<{ stored_bytes: string }[]>('SELECT stored_bytes FROM media_upload_allowances WHERE user_id = ?', [userId]);
    return row ? toNumber(row.stored_bytes) : 0;
  }
}
