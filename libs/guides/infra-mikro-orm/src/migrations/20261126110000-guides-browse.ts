import { Migration } from '@mikro-orm/migrations';

/**
 * The guides public lists page through (`GET /guides`): public, not deleted, not meant only as a
 * prerequisite, in id order. Its predicate is the list query's, so a page at any offset is an
 * index-only scan that skips ids without reading rows.
 */
export class GuidesBrowse extends Migration {
  override name = '20261126110000-guides-browse';

  up(): void {
    this.addSql(`CREATE INDEX guides_browse_idx ON guides (id) WHERE is_public AND deleted_at IS NULL AND NOT ('GUIDE_PREREQ_ONLY' = ANY(flags))`);
  }

  override down(): void {
    this.addSql('DROP INDEX guides_browse_idx');
  }
}
