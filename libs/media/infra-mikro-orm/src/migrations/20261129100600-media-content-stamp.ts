import { Migration } from '@mikro-orm/migrations';
import { contentStampSetupSql, contentStampTriggerSql } from '@rc/shared-infra-mikro-orm';

/** Images and their sizes, videos, embeds and documents (Image objects in lists and pages) count in the content stamp (see ContentStampReader): cached lists and pages that show them are built again after a change. */
export class MediaContentStamp extends Migration {
  override name = '20261129100600-media-content-stamp';

  up(): void {
    for (const sql of contentStampSetupSql()) this.addSql(sql);
    this.addSql(contentStampTriggerSql('media_images'));
    this.addSql(contentStampTriggerSql('media_image_sizes'));
    this.addSql(contentStampTriggerSql('media_videos'));
    this.addSql(contentStampTriggerSql('media_embeds'));
    this.addSql(contentStampTriggerSql('media_documents'));
  }
}
