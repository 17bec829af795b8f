import { Migration } from '@mikro-orm/migrations';
import { rowTriggerSql } from '@rc/shared-infra-mikro-orm';
import { WIKI_TOMBSTONE_TRIGGER_BODY } from '../schemas/catalog.schemas.js';

/**
 * Tombstones of wiki pages: one row per deleted page (its namespace, title and parent then, and
 * when), so `GET /wikis/{namespace}?modifiedSince=…&includeDeleted` and the incremental offline
 * archive can tell a copy what to remove. Written by a trigger on `wiki_pages`, in the transaction
 * of the delete whatever the code path; removed when the page lives again.
 */
export class WikiTombstones extends Migration {
  override name = '20261128160100-wiki-tombstones';

  up(): void {
    this.addSql(`CREATE TABLE wiki_tombstones (
      wiki_id integer PRIMARY KEY,
      namespace varchar(16) NOT NULL,
      title varchar(255) NOT NULL,
      parent_id integer NULL,
      removed_at timestamptz NOT NULL
    )`);
    this.addSql('CREATE INDEX wiki_tombstones_removed_idx ON wiki_tombstones (namespace, removed_at, wiki_id)');
    // Pages deleted before this migration: a copy made earlier may hold them.
    this.addSql(`INSERT INTO wiki_tombstones (wiki_id, namespace, title, parent_id, removed_at)
      SELECT id, namespace, title, parent_id, deleted_at FROM wiki_pages WHERE deleted_at IS NOT NULL`);
    this.addSql(rowTriggerSql('wiki_pages', 'wiki_pages_tombstone', ['UPDATE', 'DELETE'], WIKI_TOMBSTONE_TRIGGER_BODY));
  }

  override down(): void {
    this.addSql('DROP TRIGGER wiki_pages_tombstone ON wiki_pages');
    this.addSql('DROP FUNCTION wiki_pages_wiki_pages_tombstone_fn()');
    this.addSql('DROP TABLE wiki_tombstones');
  }
}
