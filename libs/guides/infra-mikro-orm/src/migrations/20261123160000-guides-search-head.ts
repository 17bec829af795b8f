import { Migration } from '@mikro-orm/migrations';

/**
 * The head of a guide's search document: what describes the guide (title A, summary B,
 * introduction, subject and category C), without the step text. The same texts and weights as the
 * start of `search_vector`, so a guide whose head matches a query (without `-excluded` words) also
 * matches its whole document. A few hundred bytes, kept in the row (never TOASTed): ranking
 * thousands of heads is cheap where ranking the whole documents (tens of KB of steps) was not.
 */
export const GUIDE_SEARCH_HEAD = `setweight(to_tsvector('english', coalesce(title, '')), 'A')
  || setweight(to_tsvector('english', coalesce(summary, '')), 'B')
  || setweight(to_tsvector('english', coalesce(introduction, '') || ' ' || coalesce(subject, '') || ' ' || coalesce(category, '')), 'C')`;

/** `search_head`, generated and GIN-indexed (search ranks by it first; suggest matches prefixes in it). */
export class GuidesSearchHead extends Migration {
  override name = '20261123160000-guides-search-head';

  up(): void {
    this.addSql(`ALTER TABLE guides ADD COLUMN search_head tsvector GENERATED ALWAYS AS (${GUIDE_SEARCH_HEAD}) STORED`);
    this.addSql(`CREATE INDEX guides_search_head_idx ON guides USING gin (search_head) WHERE is_public AND deleted_at IS NULL`);
  }
}
