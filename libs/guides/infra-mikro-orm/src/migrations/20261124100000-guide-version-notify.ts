import { Migration } from '@mikro-orm/migrations';
import { notifyTriggerBody, rowTriggerSql } from '@rc/shared-infra-mikro-orm';
import { GUIDE_VERSIONS_CHANNEL } from '../schemas/guides.schemas.js';

/**
 * Every committed change to what a guide's public body is built from (its revision, visibility,
 * deletion or prerequisites) is announced on the `guide_versions` channel with the guide's id, so
 * API instances can keep cached bodies without asking the database on every read. NOTIFY is sent
 * on commit only: a listener never hears of a change that could still roll back.
 */
export class GuideVersionNotify extends Migration {
  override name = '20261124100000-guide-version-notify';

  up(): void {
    // Named as the schema declares it; the columns watched then (20261127120000-guide-discussion adds one).
    const body = notifyTriggerBody(GUIDE_VERSIONS_CHANNEL, 'id', ['revisionid', 'is_public', 'deleted_at', 'prerequisites']);
    this.addSql(rowTriggerSql('guides', 'guides_version_notify', ['INSERT', 'UPDATE', 'DELETE'], body));
  }
}
