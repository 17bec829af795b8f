import { Migration } from '@mikro-orm/migrations';
import { GUIDE_SEARCH_VECTOR } from './20261122300000-guides-search.js';
import { GUIDE_SEARCH_HEAD } from './20261123160000-guides-search-head.js';

/** The steps' part of a guide's search document (weight D), as `search_vector` ends with it. */
export const GUIDE_STEPS_VECTOR = `setweight(to_tsvector('english', steps_text), 'D')`;

/**
 * `search_vector` from the head and `steps_vector` (the steps' part, when kept), else from
 * `steps_text` as before: the same document (`a || b || c || d` shifts `d` by the positions of
 * `a || b || c` whichever way it is grouped).
 */
export const GUIDE_SEARCH_VECTOR_KEPT_STEPS = `${GUIDE_SEARCH_HEAD}
  || coalesce(steps_vector, ${GUIDE_STEPS_VECTOR})`;

/**
 * Parsing a guide's step text (thousands of words) was most of PostgreSQL's work on every edit of
 * its title, summary or introduction: `search_vector` was generated from the whole text again.
 * `steps_vector` keeps the steps' part, written by the repository when the steps change (or, the
 * first time, when the head does); `search_vector` joins it to the head. A guide whose
 * `steps_vector` is not written yet (loaded in bulk, or not edited since) is searched as before.
 */
export class GuidesStepsVector extends Migration {
  override name = '20261201100000-guides-steps-vector';

  up(): void {
    this.addSql('ALTER TABLE guides ADD COLUMN steps_vector tsvector');
    this.addSql('ALTER TABLE guides DROP COLUMN search_vector');
    this.addSql(`ALTER TABLE guides ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${GUIDE_SEARCH_VECTOR_KEPT_STEPS}) STORED`);
    this.addSql('CREATE INDEX guides_search_idx ON guides USING gin (search_vector) WITH (gin_pending_list_limit = 256)');
  }

  override down(): void {
    this.addSql('ALTER TABLE guides DROP COLUMN search_vector');
    this.addSql('ALTER TABLE guides DROP COLUMN steps_vector');
    this.addSql(`ALTER TABLE guides ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${GUIDE_SEARCH_VECTOR}) STORED`);
    this.addSql('CREATE INDEX guides_search_idx ON guides USING gin (search_vector) WITH (gin_pending_list_limit = 256)');
  }
}
