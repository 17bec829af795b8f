import { Migration } from '@mikro-orm/migrations';
import { notifyTriggerBody } from '@rc/shared-infra-mikro-orm';
import { GUIDE_VERSIONS_CHANNEL } from '../schemas/guides.schemas.js';

/** The trigger body as this migration made it (a later one watches one more column: GuidesMedia). */
const TRIGGER_BODY = notifyTriggerBody(GUIDE_VERSIONS_CHANNEL, 'id', ['revisionid', 'is_public', 'deleted_at', 'prerequisites', 'discussion_seq']);

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
      CREATE OR REPLACE FUNCTION guides_guides_version_notify_fn() RETURNS trigger LANGUAGE plpgsql AS $$ begin ${TRIGGER_BODY} end; $$;
    `);
  }
}
