import { Migration } from '@mikro-orm/migrations';

/**
 * The names of the sizes made of each image's current version, on the image's row, in name order:
 * everything content shows of an image but its id, GUID and version (SHOWN_IMAGES). Reading them
 * from `media_image_sizes` took a descent of its version index per image, nine entries apart, on
 * every first read of a guide, page, list or search answer; the repository writes them with the
 * sizes themselves (`saveImage` replaces both together).
 */
export class MediaImagesShownSizes extends Migration {
  override name = '20261204100000-media-images-shown-sizes';

  up(): void {
    this.addSql(`ALTER TABLE media_images ADD COLUMN shown_sizes varchar(10)[] NOT NULL DEFAULT '{}';`);
    this.addSql(SHOWN_SIZES_BACKFILL_SQL);
  }

  override down(): void {
    this.addSql(`ALTER TABLE media_images DROP COLUMN shown_sizes;`);
  }
}

/** Sets every image's `shown_sizes` from its sizes of its current version (the migration's backfill; also for rows written around the repository). */
export const SHOWN_SIZES_BACKFILL_SQL = `UPDATE media_images i
  SET shown_sizes = ARRAY(SELECT s.size FROM media_image_sizes s WHERE s.image_id = i.id AND s.version = i.version ORDER BY s.size)
  WHERE EXISTS (SELECT 1 FROM media_image_sizes s WHERE s.image_id = i.id);`;
