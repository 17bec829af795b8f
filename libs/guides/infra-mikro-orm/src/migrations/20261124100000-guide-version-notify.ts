import { Migration } from '@mikro-orm/migrations';
import { GUIDE_VERSION_TRIGGER_BODY } from '../schemas/guides.schemas.js';

/**
 * Every committed change to what a guide's public body is built from (its revision, visibility,
 * deletion or prerequisites) is announced on the `guide_versions` channel with the guide's id, so
 * API instances can keep cached bodies without asking the database on every read. NOTIFY is sent
 * on commit only: a listener never hears of a change that could still roll back.
 */
export class GuideVersionNotify extends Migration {
  override name = '20261124100000-guide-version-notify';

  up(): void {
    this.addSql(`
      -- Named as the schema (GuideRowSchema.triggers) declares it.
      CREATE FUNCTION guides_guides_version_notify_fn() RETURNS trigger LANGUAGE plpgsql AS $$ begin ${GUIDE_VERSION_TRIGGER_BODY} end; $$;
      CREATE TRIGGER guides_version_notify AFTER INSERT OR UPDATE OR DELETE ON guides
        FOR EACH ROW EXECUTE FUNCTION guides_guides_version_notify_fn();
    `);
  }
}
