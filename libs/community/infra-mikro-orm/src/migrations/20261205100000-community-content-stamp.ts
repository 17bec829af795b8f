import { Migration } from '@mikro-orm/migrations';
import { contentStampSetupSql, contentStampTriggerSql } from '@rc/shared-infra-mikro-orm';

/**
 * Comments and stories count in the content stamp (see ContentStampReader): kept comment lists and
 * threads are built again after any comment is posted, edited or deleted, on a guide or anywhere
 * else (a guide's comments move its discussion stamp too; comments on wiki pages and stories
 * move nothing else).
 */
export class CommunityContentStamp extends Migration {
  override name = '20261205100000-community-content-stamp';

  up(): void {
    for (const sql of contentStampSetupSql()) this.addSql(sql);
    this.addSql(contentStampTriggerSql('comments'));
    this.addSql(contentStampTriggerSql('stories'));
  }
}
