import { Migration } from '@mikro-orm/migrations';
import { rowTriggerSql } from '@rc/shared-infra-mikro-orm';
import { GUIDE_MARKS_COUNT_TRIGGER_BODY, GUIDE_STATS_FILL_SQL, GUIDE_STATS_ROW_TRIGGER_BODY, GUIDE_STATS_VERSION_TRIGGER_BODY } from '../schemas/guides.schemas.js';

/**
 * A narrow row of counts per guide (`guide_stats`): views (added in batches by the API's view
 * counters, never per read), favourites and completions (kept by a trigger on `guide_marks`), and
 * a popularity made of them, each indexed for the list orders (`GET /guides?order=…`; `newest`
 * has an index on `guides`). They live
 * apart from `guides` so the frequent view updates rewrite a small row (the guides' row carries
 * generated search vectors and wide texts). Every guide gets its row when inserted; a change of the
 * favourite or completion count is announced on the versions channel, as bodies show them.
 */
export class GuideStats extends Migration {
  override name = '20261128100000-guide-stats';

  up(): void {
    this.addSql(`CREATE TABLE guide_stats (
      guide_id integer PRIMARY KEY REFERENCES guides (id) ON DELETE CASCADE,
      views bigint NOT NULL DEFAULT 0,
      favorites_count integer NOT NULL DEFAULT 0,
      completions_count integer NOT NULL DEFAULT 0,
      popularity bigint GENERATED ALWAYS AS (views + 20 * favorites_count + 10 * completions_count) STORED
    )`);
    this.addSql(GUIDE_STATS_FILL_SQL);
    this.addSql('CREATE INDEX guide_stats_views_idx ON guide_stats (views DESC NULLS LAST, guide_id DESC)');
    this.addSql('CREATE INDEX guide_stats_favorites_idx ON guide_stats (favorites_count DESC NULLS LAST, guide_id DESC)');
    this.addSql('CREATE INDEX guide_stats_popularity_idx ON guide_stats (popularity DESC NULLS LAST, guide_id DESC)');
    // The newest order: listed guides, most recently published first.
    this.addSql(`CREATE INDEX guides_newest_idx ON guides (published_at DESC NULLS LAST, id DESC) WHERE is_public AND deleted_at IS NULL AND NOT ('GUIDE_PREREQ_ONLY' = ANY(flags))`);
    this.addSql(rowTriggerSql('guides', 'guides_stats_row', ['INSERT'], GUIDE_STATS_ROW_TRIGGER_BODY));
    this.addSql(rowTriggerSql('guide_marks', 'guide_marks_count', ['INSERT', 'DELETE'], GUIDE_MARKS_COUNT_TRIGGER_BODY));
    this.addSql(rowTriggerSql('guide_stats', 'guide_stats_version_notify', ['UPDATE'], GUIDE_STATS_VERSION_TRIGGER_BODY));
  }
}
