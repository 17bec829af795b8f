import type { ImageHeader } from '../model/image.js';
import type { CropRect } from '../model/image-ratio.js';
import type { OutputFormat } from '../model/image-format.js';
import type { ByteStream } from './media-store.js';

/** What the bytes are, read from their first bytes (never from a file name). */
export type SniffedType =
  | { readonly kind: 'image'; readonly header: ImageHeader }
  /** A type the service knows but refuses as an image (SVG, PDF, a video...), or cannot decode (`mime` says which). */
  | { readonly kind: 'other'; readonly mime: string }
  | { readonly kind: 'unknown' };

/**
 * How to turn an upload into one rendition, in this order: EXIF orientation (upright), `rotation`,
 * `crop`, then resize to the exact size.
 */
export interface RenditionSpec {
  /** Quarter turns clockwise of the upright image. */
  readonly rotation: 0 | 90 | 180 | 270;
  /** Cut from the turned image (its coordinates). */
  readonly crop: CropRect | null;
  /** The exact size of the output. */
  readonly width: number;
  readonly height: number;
  /** `cover`: scale to fill, cut the overflow (centred); `fill`: the size is already the image's ratio. */
  readonly mode: 'cover' | 'fill';
  readonly format: OutputFormat;
}

/** Reads and renders images. Decoding is bounded: no call decodes more pixels than the limit it was made with. */
export abstract class ImageProcessor {
  /**
   * Names the type from the first bytes and, for an image, reads its declared size, orientation
   * and EXIF from the header without decoding pixels. `head` is the first bytes (at least 64 KiB
   * when the file is that long); `open` gives all the bytes, for headers that lie further in.
   */
  abstract probe(head: Uint8Array, open: () => Promise<ByteStream>): Promise<SniffedType>;
  /**
   * Renders one rendition from the full upload; the output carries no metadata. `sourcePixels`:
   * the upload's size in pixels when known, so that renders can be held back while others decode
   * (what a render holds in memory grows with them).
   */
  abstract render(source: ByteStream, spec: RenditionSpec, sourcePixels?: number): ByteStream;
}
