import { Migration } from '@mikro-orm/migrations';
import { GUIDE_VERSION_TRIGGER_BODY } from '../schemas/guides.schemas.js';

/**
 * Guides show their images as Image objects built into their bodies: `media_stamp` counts the
 * changes to the files of the images a guide shows (sizes made, rotated, removed), so a guide's
 * version (and the bodies built from it) changes with them, and the version trigger announces it
 * to every instance. The GIN index finds the steps that show an image.
 */
export class GuidesMedia extends Migration {
  override name = '20261127180000-guides-media';

  up(): void {
    this.addSql('ALTER TABLE guides ADD COLUMN media_stamp integer NOT NULL DEFAULT 0');
    this.addSql(`CREATE INDEX guides_image_idx ON guides (image_id) WHERE image_id IS NOT NULL`);
    this.addSql(`CREATE INDEX guide_steps_images_idx ON guide_steps USING gin ((media -> 'imageIds'))`);
    this.addSql(`CREATE OR REPLACE FUNCTION guides_guides_version_notify_fn() RETURNS trigger LANGUAGE plpgsql AS $$ begin ${GUIDE_VERSION_TRIGGER_BODY} end; $$`);
  }
}
