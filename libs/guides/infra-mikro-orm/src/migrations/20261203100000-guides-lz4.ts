import { Migration } from '@mikro-orm/migrations';

/**
 * The large values the guides context writes on every edit or body build, each TOASTed (compressed)
 * by PostgreSQL as it is stored: a revision's snapshot (10 to 30 KB of JSON), a stored body's
 * template (about 30 KB), the steps' text, and their translations'.
 */
export const GUIDES_LZ4_COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['guide_revisions', 'snapshot'],
  ['guide_bodies', 'template'],
  ['guides', 'steps_text'],
  ['guide_translation_revisions', 'snapshot'],
  ['guide_translations', 'steps'],
  ['guide_translations', 'steps_text'],
];

/** Whether the server was built with LZ4 (`default_toast_compression` accepts it): a condition in SQL. */
export const SERVER_HAS_LZ4 = `EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals))`;

function compressionSql(method: 'lz4' | 'DEFAULT'): string {
  const statements = GUIDES_LZ4_COLUMNS.map(([table, column]) => `ALTER TABLE ${table} ALTER COLUMN ${column} SET COMPRESSION ${method};`).join('\n      ');
  return `DO $$ BEGIN
    IF ${SERVER_HAS_LZ4} THEN
      ${statements}
    END IF;
  END $$`;
}

/**
 * These columns' new values are compressed with LZ4 instead of PostgreSQL's own pglz, when the
 * server has LZ4 (Debian's and the official images' PostgreSQL do; a server without it, like the
 * embedded one, keeps pglz). Measured on the bench data: a 30 KB template took 0.49 ms to compress
 * with pglz and 0.11 ms with LZ4, a 12 KB snapshot 0.43 to 0.83 ms and 0.31 to 0.35 ms, for values
 * about a sixth larger; both read back at about the same cost. Values already stored keep their
 * compression until they are written again (both are read alike).
 */
export class GuidesLz4 extends Migration {
  override name = '20261203100000-guides-lz4';

  up(): void {
    this.addSql(compressionSql('lz4'));
  }

  override down(): void {
    this.addSql(compressionSql('DEFAULT'));
  }
}
