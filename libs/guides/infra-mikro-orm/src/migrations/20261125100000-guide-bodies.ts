import { Migration } from '@mikro-orm/migrations';

/**
 * The read model of public guide bodies (`guide_bodies`, see GuideBodyRow): one serialized body per
 * guide and variant, so that a body missing from an instance's memory is one row to read instead
 * of a build. A row serves only the version and format it was built for; it goes with its guide.
 */
export class GuideBodies extends Migration {
  override name = '20261125100000-guide-bodies';

  up(): void {
    this.addSql(`CREATE TABLE guide_bodies (
      guide_id int NOT NULL REFERENCES guides (id) ON DELETE CASCADE,
      inline boolean NOT NULL,
      version text NOT NULL,
      format text NOT NULL,
      marker text NOT NULL,
      template text NOT NULL,
      built_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (guide_id, inline)
    )`);
  }
}
