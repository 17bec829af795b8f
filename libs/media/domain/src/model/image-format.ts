/** The raster types an upload may be (reference §2.3: JPEG, GIF, PNG, BMP, TIFF, HEIC, WEBP, AVIF). */
export const IMAGE_FORMATS = ['jpeg', 'png', 'gif', 'webp', 'avif', 'tiff', 'bmp', 'heic'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export function isImageFormat(value: string): value is ImageFormat {
  return (IMAGE_FORMATS as readonly string[]).includes(value);
}

export const IMAGE_MIME_TYPES: Readonly<Record<ImageFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
  heic: 'image/heic',
};

/** The file extension written for each format. */
export const IMAGE_EXTENSIONS: Readonly<Record<ImageFormat, string>> = {
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  avif: 'avif',
  tiff: 'tif',
  bmp: 'bmp',
  heic: 'heic',
};

/** File-name extensions (lower case) and the format each promises. */
const EXTENSION_FORMATS: Readonly<Record<string, ImageFormat>> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  jpe: 'jpeg',
  jfif: 'jpeg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  avif: 'avif',
  tif: 'tiff',
  tiff: 'tiff',
  bmp: 'bmp',
  dib: 'bmp',
  heic: 'heic',
  heif: 'heic',
};

/** The format a file name's extension promises; `null` when it names none the service accepts. */
export function formatOfFilename(filename: string): ImageFormat | null {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return null;
  return EXTENSION_FORMATS[filename.slice(dot + 1).toLowerCase()] ?? null;
}

/** Formats browsers show as they are: an original in one of these keeps its format. */
const WEB_FORMATS: ReadonlySet<ImageFormat> = new Set(['jpeg', 'png', 'gif', 'webp', 'avif']);

/** What renditions are written as. */
export type OutputFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

/**
 * The format of a rendition: the full-resolution `original` keeps a web format (re-encoded, so no
 * metadata survives); TIFF, BMP and HEIC originals become JPEG (PNG with transparency). Every
 * smaller size is JPEG, or PNG when the image has transparency.
 */
export function renditionFormat(source: ImageFormat, hasAlpha: boolean, original: boolean): OutputFormat {
  if (original && WEB_FORMATS.has(source)) return source as OutputFormat;
  return hasAlpha ? 'png' : 'jpeg';
}

export const OUTPUT_EXTENSIONS: Readonly<Record<OutputFormat, string>> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp', avif: 'avif' };
