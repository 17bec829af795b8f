import { Migration } from '@mikro-orm/migrations';

/**
 * GIN indexes buffer new entries in a pending list (4 MB by default) that every search reads in
 * full until vacuum merges it: after a few thousand guide edits, each search scanned some 300
 * pending pages of each index. The head index (a few dozen words per guide) now takes its entries
 * at once; the whole-document index (hundreds of words per guide, where buffering pays on
 * writes) keeps at most 256 kB pending. Both lists are merged now.
 */
export class GuidesSearchPending extends Migration {
  override name = '20261124120000-guides-search-pending';

  up(): void {
    this.addSql(`ALTER INDEX guides_search_head_idx SET (fastupdate = off)`);
    this.addSql(`ALTER INDEX guides_search_idx SET (gin_pending_list_limit = 256)`);
    this.addSql(`SELECT gin_clean_pending_list('guides_search_head_idx'), gin_clean_pending_list('guides_search_idx')`);
  }
}
