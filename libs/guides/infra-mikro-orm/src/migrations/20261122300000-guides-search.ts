import { Migration } from '@mikro-orm/migrations';
import { stepsPlainText } from '../repositories/steps-text.js';

/** The document a guide is found by, weighted: title (A), summary (B), introduction, subject and category (C), step text (D). */
export const GUIDE_SEARCH_VECTOR = `setweight(to_tsvector('english', coalesce(title, '')), 'A')
  || setweight(to_tsvector('english', coalesce(summary, '')), 'B')
  || setweight(to_tsvector('english', coalesce(introduction, '') || ' ' || coalesce(subject, '') || ' ' || coalesce(category, '')), 'C')
  || setweight(to_tsvector('english', steps_text), 'D')`;

const BATCH = 200;

/**
 * Full-text search over guides: `steps_text` (the plain text of the steps, written by the
 * repository with every save) and the generated, GIN-indexed `search_vector`. Existing guides get
 * their `steps_text` here, computed by the same code the repository uses.
 */
export class GuidesSearch extends Migration {
  override name = '20261122300000-guides-search';

  async up(): Promise<void> {
    // Statements run in order here (not queued with addSql): the backfill reads what the first adds.
    await this.execute(`ALTER TABLE guides ADD COLUMN steps_text text NOT NULL DEFAULT ''`);
    let after = 0;
    for (;;) {
      const rows = (await this.execute(
        `SELECT g.id, coalesce(jsonb_agg(jsonb_build_object('title', s.title, 'lines', s.lines) ORDER BY s.orderby) FILTER (WHERE s.id IS NOT NULL), '[]') AS steps
           FROM (SELECT id FROM guides WHERE id > ? ORDER BY id LIMIT ?) g LEFT JOIN guide_steps s ON s.guide_id = g.id
          GROUP BY g.id ORDER BY g.id`,
        [after, BATCH],
      )) as { id: number; steps: { title: string; lines: { text: string }[] }[] }[];
      if (!rows.length) break;
      const texts = rows.map((row) => ({ id: row.id, text: stepsPlainText(row.steps) })).filter((row) => row.text !== '');
      if (texts.length) {
        await this.execute(`UPDATE guides g SET steps_text = x.text FROM jsonb_to_recordset(?::jsonb) AS x(id int, text text) WHERE g.id = x.id`, [JSON.stringify(texts)]);
      }
      after = rows[rows.length - 1]!.id;
    }
    await this.execute(`ALTER TABLE guides ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${GUIDE_SEARCH_VECTOR}) STORED`);
    await this.execute(`CREATE INDEX guides_search_idx ON guides USING gin (search_vector)`);
  }
}
