import { Migration } from '@mikro-orm/migrations';
import { rowTriggerSql } from '@rc/shared-infra-mikro-orm';
import { GUIDE_TOMBSTONE_TRIGGER_BODY } from '../schemas/guides.schemas.js';

/**
 * Tombstones: one row per guide that was public and no longer is (deleted, or made private), with
 * its title and category then and when it happened, so `GET /guides?modifiedSince=…&includeDeleted`
 * and the incremental offline archive can tell a copy what to remove. Written by a trigger on
 * `guides`, so in the transaction of the change whatever the code path; removed when the guide
 * is public again (it then shows as modified).
 */
export class GuideTombstones extends Migration {
  override name = '20261128160000-guide-tombstones';

  up(): void {
    this.addSql(`CREATE TABLE guide_tombstones (
      guide_id integer PRIMARY KEY,
      title varchar(255) NOT NULL,
      category varchar(255) NOT NULL,
      reason varchar(8) NOT NULL CHECK (reason IN ('deleted', 'private')),
      removed_at timestamptz NOT NULL
    )`);
    this.addSql('CREATE INDEX guide_tombstones_removed_idx ON guide_tombstones (removed_at, guide_id)');
    // Guides hidden before this migration that were published once: a copy made earlier may hold them.
    this.addSql(`INSERT INTO guide_tombstones (guide_id, title, category, reason, removed_at)
      SELECT id, title, category, CASE WHEN deleted_at IS NULL THEN 'private' ELSE 'deleted' END, coalesce(deleted_at, modified_at)
        FROM guides WHERE published_at IS NOT NULL AND (deleted_at IS NOT NULL OR NOT is_public)`);
    this.addSql(rowTriggerSql('guides', 'guides_tombstone', ['UPDATE', 'DELETE'], GUIDE_TOMBSTONE_TRIGGER_BODY));
  }

  override down(): void {
    this.addSql('DROP TRIGGER guides_tombstone ON guides');
    this.addSql('DROP FUNCTION guides_guides_tombstone_fn()');
    this.addSql('DROP TABLE guide_tombstones');
  }
}
