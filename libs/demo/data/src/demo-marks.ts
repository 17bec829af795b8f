import { Migration } from '@mikro-orm/migrations';

/** The row that records the one load of the demo content (see `loadDemoData`). */
export const DEMO_DATA_MARK = 'demo-data';

/**
 * `provisioning_marks`: what start-up provisioning has done once and must never do again, one row
 * a thing. A database that already holds content when the table arrives is marked as having had
 * its demo load (a database with content is never given demo content on top); one that holds at
 * most accounts (an admin provisioned by ADMIN_EMAIL before the demo ran) is not, so its next
 * start loads the demo content.
 */
export class ProvisioningMarks extends Migration {
  override name = '20261126100000-provisioning-marks';

  up(): void {
    this.addSql(`CREATE TABLE provisioning_marks (
      name text PRIMARY KEY,
      done_at timestamptz NOT NULL DEFAULT now(),
      detail jsonb NOT NULL DEFAULT '{}'::jsonb
    )`);
    this.addSql(`INSERT INTO provisioning_marks (name, detail)
      SELECT '${DEMO_DATA_MARK}', '{"reason": "the database held content when provisioning marks were introduced"}'::jsonb
      WHERE EXISTS (SELECT 1 FROM guides) OR EXISTS (SELECT 1 FROM wiki_pages)`);
  }

  override down(): void {
    this.addSql('DROP TABLE provisioning_marks');
  }
}
