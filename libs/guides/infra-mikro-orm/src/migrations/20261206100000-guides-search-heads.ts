import { Migration } from '@mikro-orm/migrations';
import { rowTriggerSql } from '@rc/shared-infra-mikro-orm';
import { GUIDE_SEARCH_HEADS_FILL_SQL, GUIDE_SEARCH_HEADS_TRIGGER_BODY } from '../schemas/guides.schemas.js';

/**
 * `guide_search_heads`: the head of every listed guide's search document (`search_head`: its
 * title, summary, introduction, subject and category), alone in a narrow table with its GIN index.
 * Suggestions rank every guide whose head holds a word starting with what was typed (5,000 of
 * 100,000 for a common prefix): read from `guides`, whose rows are wide, that touched a page of the
 * table per match, more pages than the server keeps in memory; the heads alone fill a quarter of
 * the pages, which stay cached. Kept by a trigger on `guides`, in the transaction of the change.
 * The index on `guides.search_head` it replaces is dropped (nothing else reads by it).
 */
export class GuidesSearchHeads extends Migration {
  override name = '20261206100000-guides-search-heads';

  up(): void {
    this.addSql('CREATE TABLE guide_search_heads (guide_id integer PRIMARY KEY, search_head tsvector NOT NULL)');
    this.addSql(GUIDE_SEARCH_HEADS_FILL_SQL);
    this.addSql('CREATE INDEX guide_search_heads_idx ON guide_search_heads USING gin (search_head) WITH (fastupdate = off)');
    this.addSql(rowTriggerSql('guides', 'guides_search_heads', ['INSERT', 'UPDATE', 'DELETE'], GUIDE_SEARCH_HEADS_TRIGGER_BODY));
    this.addSql('DROP INDEX guides_search_head_idx');
    this.addSql('ANALYZE guide_search_heads');
  }

  override down(): void {
    this.addSql('CREATE INDEX guides_search_head_idx ON guides USING gin (search_head) WITH (fastupdate = off) WHERE is_public AND deleted_at IS NULL');
    this.addSql('DROP TRIGGER guides_search_heads ON guides');
    this.addSql('DROP FUNCTION guides_guides_search_heads_fn()');
    this.addSql('DROP TABLE guide_search_heads');
  }
}
