import { finished, PassThrough, Readable } from 'node:stream';
import exifReader from 'exif-reader';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { ImageProcessor, readAll, type ByteStream, type ImageFormat, type RenditionSpec, type SniffedType } from '@rc/media-domain';
import { PixelBudget } from './pixel-budget.js';

/** MIME types (as `file-type` names them) of the accepted raster formats. */
const FORMAT_OF_MIME: Readonly<Record<string, ImageFormat>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/apng': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
  'image/bmp': 'bmp',
  'image/heic': 'heic',
  'image/heif': 'heic',
  'image/heic-sequence': 'heic',
  'image/heif-sequence': 'heic',
};

/**
 * A JPEG rendition of more pixels than this is written baseline with the standard Huffman tables.
 * A progressive JPEG, or one with optimised Huffman tables, is written in two passes over all its
 * DCT coefficients, which the encoder holds at once (about 3 bytes a pixel: ~95 MB for a 17.5 MP
 * original); a baseline one with standard tables streams, a few rows at a time. Up to this size
 * (the largest named size, `huge`, is 1.9 MP) the renditions stay progressive and optimised; above
 * it (the full-resolution original of a photograph), the file is a few percent larger.
 */
export const PROGRESSIVE_JPEG_MAX_PIXELS = 4_000_000;

export interface SharpImageProcessorOptions {
  /** The most pixels a render decodes (the upload check refuses more before this is reached). */
  readonly maxPixels: number;
  /**
   * The most pixels renders decode at once (see PixelBudget; default DECODE_BUDGET_PIXELS): two
   * photographs of 12 MP at once, one of 17.5 MP alone.
   */
  readonly decodeBudgetPixels?: number;
}

/** Renders decode at most this many pixels at once by default (about 72 MB of decoded pixels). */
export const DECODE_BUDGET_PIXELS = 24_000_000;

/** The formats the prebuilt libvips inside sharp decodes here (HEIC needs a HEVC decoder it lacks; BMP has no loader). */
export function decodableFormats(): Set<ImageFormat> {
  const formats = new Set<ImageFormat>(['jpeg', 'png', 'gif', 'webp', 'tiff']);
  const heif = sharp.format.heif?.input as { buffer?: boolean; fileSuffix?: string[] } | undefined;
  if (heif?.buffer) formats.add('avif');
  if (heif?.fileSuffix?.includes('.heic')) formats.add('heic');
  if ((sharp.format as unknown as Record<string, { input?: { buffer?: boolean } }>)['magick']?.input?.buffer) formats.add('bmp');
  return formats;
}

/**
 * Images through sharp (libvips). A probe reads the type from the bytes (`file-type`) and the
 * size, orientation and EXIF from the header (`sharp().metadata()`, which decodes no pixel), so a
 * decompression bomb is answered from its declared size. A render decodes at most `maxPixels`
 * (`limitInputPixels`), orients the image by its EXIF, crops, rotates, resizes to the exact size
 * asked and encodes without any metadata (sharp keeps none unless told to): no GPS position,
 * serial number or other EXIF leaves in a served file.
 */
export class SharpImageProcessor extends ImageProcessor {
  readonly decodable = decodableFormats();
  /** Shared by every render of the process. */
  readonly budget: PixelBudget;

  constructor(private readonly options: SharpImageProcessorOptions) {
    super();
    this.budget = new PixelBudget(options.decodeBudgetPixels ?? DECODE_BUDGET_PIXELS);
    // libvips' operation cache (up to 50 MB and 100 operations by default) seldom serves a render
    // here: each one decodes bytes it is streamed, hardly ever the same buffer twice. It only held the
    // decoded pixels of the last photographs (in the process's resident set) between renders.
    sharp.cache(false);
  }

  async probe(head: Uint8Array, open: () => Promise<ByteStream>): Promise<SniffedType> {
    const type = await fileTypeFromBuffer(head);
    if (looksLikeSvg(head) && (!type || /xml|svg/.test(type.mime))) return { kind: 'other', mime: 'image/svg+xml' };
    if (!type) return { kind: 'unknown' };
    const format = FORMAT_OF_MIME[type.mime];
    if (!format) return { kind: 'other', mime: type.mime };
    if (!this.decodable.has(format)) return { kind: 'other', mime: type.mime };
    const meta = (await headerOf(head)) ?? (await headerOf(await readAll(await open())));
    if (!meta?.width || !meta.height) return { kind: 'unknown' };
    return {
      kind: 'image',
      header: {
        format,
        width: meta.width,
        height: meta.pageHeight && meta.pages && meta.pages > 1 ? meta.pageHeight : meta.height,
        orientation: meta.orientation ?? 1,
        hasAlpha: meta.hasAlpha ?? false,
        exif: exifTags(meta.exif),
      },
    };
  }

  /**
   * With `sourcePixels`, the render waits for room in the decode budget (see PixelBudget) before
   * it reads the source, and gives it back when it ends, however it ends.
   */
  render(source: ByteStream, spec: RenditionSpec, sourcePixels?: number): ByteStream {
    if (sourcePixels === undefined) return this.pipe(source, spec);
    const output = new PassThrough();
    this.budget.hold(sourcePixels).then((release) => {
      if (output.destroyed) return release();
      const image = this.pipe(source, spec);
      // Ended, failed or abandoned by its reader (a store's failed upload destroys it): the budget
      // is given back, and a render cut short stops decoding.
      finished(output, (error) => {
        release();
        if (error) image.destroy();
      });
      image.on('error', (error) => output.destroy(error));
      image.pipe(output);
    }, (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
    return output;
  }

  private pipe(source: ByteStream, spec: RenditionSpec): Sharp {
    const image = this.pipeline(spec);
    const input = Readable.from(source, { objectMode: false });
    input.on('error', (error) => image.destroy(error));
    return input.pipe(image);
  }

  private pipeline(spec: RenditionSpec): Sharp {
    const animated = spec.format === 'gif' && !spec.crop && spec.rotation === 0;
    let image: Sharp = sharp({ autoOrient: true, limitInputPixels: this.options.maxPixels, sequentialRead: true, failOn: 'error', animated });
    if (spec.rotation) image = image.rotate(spec.rotation);
    if (spec.crop) image = image.extract({ ...spec.crop });
    image = image.resize(spec.width, spec.height, { fit: spec.mode === 'cover' ? 'cover' : 'fill', position: 'centre' });
    switch (spec.format) {
      case 'jpeg': {
        const inTwoPasses = spec.width * spec.height <= PROGRESSIVE_JPEG_MAX_PIXELS;
        return image.flatten({ background: '#ffffff' }).jpeg({ quality: 85, progressive: inTwoPasses, optimiseCoding: inTwoPasses });
      }
      case 'png':
        return image.png({ compressionLevel: 6 });
      case 'webp':
        return image.webp({ quality: 85 });
      case 'avif':
        return image.avif({ quality: 60, effort: 2 });
      case 'gif':
        return image.gif();
    }
  }
}

/** The header of an image from (the start of) its bytes; `null` when libvips cannot read one from them. */
async function headerOf(bytes: Uint8Array): Promise<Metadata | null> {
  try {
    return await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
  } catch {
    return null;
  }
}

/** The tags of the EXIF block by name (the Image and Photo groups; GPS and thumbnail groups are never read). */
function exifTags(raw: Buffer | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const parsed = exifReader(raw);
    const tags: Record<string, unknown> = { ...(parsed.Image ?? {}), ...(parsed.Photo ?? {}) };
    // Pointers to other groups (GPSTag, ExifTag...) are offsets, not data.
    for (const name of Object.keys(tags)) if (name.startsWith('GPS') || name.endsWith('Tag')) delete tags[name];
    return tags;
  } catch {
    return {};
  }
}

/** An SVG (or other XML) document: text starting, after an optional BOM and prolog, with markup naming `svg`. */
function looksLikeSvg(head: Uint8Array): boolean {
  const text = Buffer.from(head.subarray(0, 4096)).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('<') && /<svg[\s>]/i.test(text);
}

