import { Migration } from '@mikro-orm/migrations';
import { GUIDE_VERSION_TRIGGER_BODY } from '../schemas/guides.schemas.js';

/**
 * A discussion stamp per guide, bumped when comments on the guide or its steps change: part of the
 * guide's version (see VERSION_OF_G), and announced on the versions channel like the columns the
 * version was already made of (the trigger function is replaced with one that watches it too).
 */
export class GuideDiscussion extends Migration {
  override name = '20261127120000-guide-discussion';

  up(): void {
    this.addSql(`
      CREATE SEQUENCE guide_discussion_seq AS bigint;
      ALTER TABLE guides ADD COLUMN discussion_seq bigint NOT NULL DEFAULT 0;
      CREATE OR REPLACE FUNCTION guides_guides_version_notify_fn() RETURNS trigger LANGUAGE plpgsql AS $$ begin ${GUIDE_VERSION_TRIGGER_BODY} end; $$;
    `);
  }
}
