import { Migration } from '@mikro-orm/migrations';
import { contentStampSetupSql, contentStampTriggerSql } from '@rc/shared-infra-mikro-orm';

/** Guides, their steps, tags, translations, collaborators and teams (not the search columns an indexer fills in later, nor the counts and read model) count in the content stamp (see ContentStampReader): cached lists and pages that show them are built again after a change. */
export class GuidesContentStamp extends Migration {
  override name = '20261129100100-guides-content-stamp';

  up(): void {
    for (const sql of contentStampSetupSql()) this.addSql(sql);
    this.addSql(contentStampTriggerSql('guides', ['id', 'revisionid', 'author_id', 'contributor_ids', 'title', 'category', 'subject', 'type', 'difficulty', 'summary', 'introduction', 'conclusion', 'time_required_min', 'time_required_max', 'image_id', 'parts', 'tools', 'prerequisites', 'flags', 'is_public', 'locale', 'created_at', 'modified_at', 'published_at', 'deleted_at', 'steps_text', 'discussion_seq', 'media_stamp', 'document_ids', 'featured_documentid', 'intro_objectid', 'langids']));
    this.addSql(contentStampTriggerSql('guide_steps'));
    this.addSql(contentStampTriggerSql('guide_tags'));
    this.addSql(contentStampTriggerSql('guide_translations'));
    this.addSql(contentStampTriggerSql('guide_collaborators'));
    this.addSql(contentStampTriggerSql('guide_teams'));
  }
}
