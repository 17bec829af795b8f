import { Migration } from '@mikro-orm/migrations';
import { GUIDE_TRANSLATION_SEARCH_VECTOR, GUIDE_VERSION_TRIGGER_BODY } from '../schemas/guides.schemas.js';

/**
 * Guides in other languages: `guide_translations` holds, per guide and language, the translated
 * texts (title, subject, summary, introduction, conclusion, and the steps' titles and lines by step
 * id), their revision id (from the guides' revision sequence), the source revision they were made
 * from, and a search document in the language's text-search configuration;
 * `guide_translation_revisions` keeps each stored revision. `guides.langids` lists a guide's
 * translations: the version trigger watches it, as a guide's body shows `available_langids`.
 */
export class GuideTranslations extends Migration {
  override name = '20261128150000-guide-translations';

  up(): void {
    this.addSql(`
      ALTER TABLE guides ADD COLUMN langids varchar(2)[] NOT NULL DEFAULT '{}';
      CREATE TABLE guide_translations (
        guide_id integer NOT NULL REFERENCES guides (id) ON DELETE CASCADE,
        langid varchar(2) NOT NULL,
        revisionid integer NOT NULL,
        source_revisionid integer NOT NULL,
        title varchar(255) NULL,
        subject varchar(255) NULL,
        summary text NULL,
        introduction text NULL,
        conclusion text NULL,
        steps jsonb NOT NULL,
        steps_text text NOT NULL DEFAULT '',
        contributor_ids integer[] NOT NULL,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL,
        search_vector tsvector GENERATED ALWAYS AS (${GUIDE_TRANSLATION_SEARCH_VECTOR}) STORED,
        PRIMARY KEY (guide_id, langid)
      );
      CREATE INDEX guide_translations_search_idx ON guide_translations USING gin (search_vector);
      CREATE TABLE guide_translation_revisions (
        guide_id integer NOT NULL,
        langid varchar(2) NOT NULL,
        revisionid integer NOT NULL,
        snapshot jsonb NOT NULL,
        editor_id integer NOT NULL,
        created_at timestamptz NOT NULL,
        summary_of_change varchar(255) NULL,
        PRIMARY KEY (guide_id, revisionid),
        FOREIGN KEY (guide_id, langid) REFERENCES guide_translations (guide_id, langid) ON DELETE CASCADE
      );
      CREATE OR REPLACE FUNCTION guides_guides_version_notify_fn() RETURNS trigger LANGUAGE plpgsql AS $$ begin ${GUIDE_VERSION_TRIGGER_BODY} end; $$;
    `);
  }

  override down(): void {
    this.addSql('DROP TABLE guide_translation_revisions; DROP TABLE guide_translations; ALTER TABLE guides DROP COLUMN langids;');
  }
}
