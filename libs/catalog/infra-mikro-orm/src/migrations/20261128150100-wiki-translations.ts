import { Migration } from '@mikro-orm/migrations';
import { WIKI_TRANSLATION_SEARCH_VECTOR } from '../schemas/catalog.schemas.js';

/**
 * Wiki pages in other languages: `wiki_translations` holds, per page and language, the translated
 * display title, description and contents, their revision id (from the pages' revision sequence),
 * the source revision they were made from and a search document in the language's configuration;
 * `wiki_translation_revisions` keeps each stored revision; `wiki_pages.langids` lists a page's
 * translations (`available_langids`).
 */
export class WikiTranslations extends Migration {
  override name = '20261128150100-wiki-translations';

  up(): void {
    this.addSql(`
      ALTER TABLE wiki_pages ADD COLUMN langids varchar(2)[] NOT NULL DEFAULT '{}';
      CREATE TABLE wiki_translations (
        wiki_id integer NOT NULL REFERENCES wiki_pages (id) ON DELETE CASCADE,
        langid varchar(2) NOT NULL,
        revisionid integer NOT NULL,
        source_revisionid integer NOT NULL,
        display_title varchar(255) NULL,
        description text NULL,
        contents text NULL,
        contributor_ids integer[] NOT NULL,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL,
        search_vector tsvector GENERATED ALWAYS AS (${WIKI_TRANSLATION_SEARCH_VECTOR}) STORED,
        PRIMARY KEY (wiki_id, langid)
      );
      CREATE INDEX wiki_translations_search_idx ON wiki_translations USING gin (search_vector);
      CREATE TABLE wiki_translation_revisions (
        wiki_id integer NOT NULL,
        langid varchar(2) NOT NULL,
        revisionid integer NOT NULL,
        snapshot jsonb NOT NULL,
        editor_id integer NOT NULL,
        created_at timestamptz NOT NULL,
        summary_of_change varchar(255) NULL,
        PRIMARY KEY (wiki_id, revisionid),
        FOREIGN KEY (wiki_id, langid) REFERENCES wiki_translations (wiki_id, langid) ON DELETE CASCADE
      );
    `);
  }

  override down(): void {
    this.addSql('DROP TABLE wiki_translation_revisions; DROP TABLE wiki_translations; ALTER TABLE wiki_pages DROP COLUMN langids;');
  }
}
