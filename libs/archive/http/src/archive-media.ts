import { Readable } from 'node:stream';
import type { ImageObject, MediaImageFiles } from '@rc/media-contracts';
import type { ImageBody } from '@rc/shared-http';
import type { ArchiveZip } from './archive-zip.js';

/**
 * The sizes of an image packed into the archive: those offline clients show (thumbnail in lists,
 * standard and medium in steps, large when a step image is opened). Not `mini` (nothing offline
 * shows it), not `original` and not `huge` (full-resolution files would make the archive many
 * times larger): those stay the online URLs.
 */
export const PACKED_SIZES = ['thumbnail', 'standard', 'medium', 'large'] as const;

/** The folder of the media files in the archive. */
export const MEDIA_FOLDER = 'media';

const EXTENSIONS = ['jpg', 'png', 'gif', 'webp', 'avif', 'bin'] as const;
const EXTENSION_OF: Record<string, number> = { 'image/jpeg': 0, 'image/png': 1, 'image/gif': 2, 'image/webp': 3, 'image/avif': 4 };

/** An image of a document: an Image object (its `id` and `guid`), or none. */
type ShownImage = ImageBody | ImageObject | undefined;

/**
 * The images of the archive's documents, packed as files under `media/`, each size once however
 * many documents show it: `pack` adds the files of the images not packed yet (read from the media
 * store as they stream, one file at a time, between two documents), `local` answers an Image
 * object whose packed sizes point at those files by a path relative to the document.
 *
 * What it remembers is one number per image met (which sizes were packed, and the files' type),
 * never the files' bytes.
 */
export class ArchiveMedia {
  /** By image id: bits 0-3 the packed sizes (PACKED_SIZES order), bits 4+ the extension's index. */
  private readonly packed = new Map<number, number>();
  private count = 0;

  constructor(
    private readonly files: MediaImageFiles,
    private readonly zip: ArchiveZip,
    private readonly date: Date,
    /** Called with each file's path once it is in the archive (the manifest lists them). */
    private readonly onFile: (path: string, contentType: string) => Promise<void>,
  ) {}

  /** How many files were packed. */
  get fileCount(): number {
    return this.count;
  }

  /** Packs the files of these images not packed yet (to be called between two entries, never inside one). */
  async pack(images: Iterable<ShownImage>): Promise<void> {
    const guids = new Map<number, string>();
    for (const image of images) {
      const id = image?.['id'];
      const guid = image?.['guid'];
      if (typeof id === 'number' && typeof guid === 'string' && !this.packed.has(id)) guids.set(id, guid);
    }
    if (!guids.size) return;
    for (const id of guids.keys()) this.packed.set(id, 0);
    for await (const file of this.files.files([...guids.keys()], PACKED_SIZES)) {
      const guid = guids.get(file.imageId);
      const bit = PACKED_SIZES.indexOf(file.size as (typeof PACKED_SIZES)[number]);
      if (guid === undefined || bit < 0) {
        await drain(file.body);
        continue;
      }
      const extension = EXTENSION_OF[file.contentType] ?? EXTENSIONS.length - 1;
      const path = mediaPath(guid, file.size, EXTENSIONS[extension]!);
      await this.zip.add(Readable.from(file.body, { objectMode: false }), { name: path, date: this.date });
      this.packed.set(file.imageId, (this.packed.get(file.imageId)! | (1 << bit)) | (extension << 4));
      this.count++;
      await this.onFile(path, file.contentType);
    }
  }

  /**
   * The image as a document at `depth` folders below the archive's root shows it: each packed size
   * by its path relative to the document; the other sizes, and `original`, stay the online URLs.
   */
  local<T extends ShownImage>(image: T, depth: number): T {
    const id = image?.['id'];
    const guid = image?.['guid'];
    if (!image || typeof id !== 'number' || typeof guid !== 'string') return image;
    const state = this.packed.get(id);
    if (!state) return image;
    const up = '../'.repeat(depth);
    const extension = EXTENSIONS[state >> 4]!;
    const out: Record<string, unknown> = { ...image };
    PACKED_SIZES.forEach((size, bit) => {
      if (state & (1 << bit) && typeof image[size] === 'string') out[size] = `${up}${mediaPath(guid, size, extension)}`;
    });
    return out as T;
  }
}

/** Where a size of an image lives in the archive: `media/<guid>.<size>.<extension>`. */
export function mediaPath(guid: string, size: string, extension: string): string {
  return `${MEDIA_FOLDER}/${guid}.${size}.${extension}`;
}

async function drain(body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of body) void chunk;
}
