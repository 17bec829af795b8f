import { Migration } from '@mikro-orm/migrations';

/**
 * The listed guides of a category, in id order: category pages list them (and merge their parts
 * and tools), `GET /guides?category=` pages through them, and `requireGuides` reads the distinct
 * categories (an index-only scan).
 */
export class GuidesPaging extends Migration {
  override name = '20261123140000-guides-paging';

  up(): void {
    this.addSql(`CREATE INDEX guides_category_idx ON guides (category, id) WHERE is_public AND deleted_at IS NULL`);
  }
}
