import { Migration } from '@mikro-orm/migrations';

/**
 * The sizes made of an image's current version, read from the index alone: content shows Image
 * objects on every first read of a guide, page, list or search answer (see SHOWN_IMAGES), and the
 * primary key (`image_id, size`) left the version to be read from each size's row.
 */
export class MediaShownSizes extends Migration {
  override name = '20261202100000-media-shown-sizes';

  up(): void {
    this.addSql(`CREATE INDEX media_image_sizes_version_idx ON media_image_sizes (image_id, version, size);`);
  }

  override down(): void {
    this.addSql(`DROP INDEX media_image_sizes_version_idx;`);
  }
}
