/** EXIF kept as data: tag name → a JSON value (text, a number, a list of numbers). */
export type ExifValue = string | number | boolean | readonly number[];
export type ExifData = Readonly<Record<string, ExifValue>>;

/**
 * The tags kept: how the picture was taken, nothing about who, where or when. This is an
 * allow-list (a tag not named here is dropped), so GPS tags, serial numbers, owner and artist
 * names, comments, maker notes, capture dates, unique ids and any tag a camera invents never
 * reach the database. Served files carry no metadata at all: renditions are re-encoded without it.
 */
export const KEPT_EXIF_TAGS: ReadonlySet<string> = new Set([
  'Make',
  'Model',
  'Software',
  'LensMake',
  'LensModel',
  'LensSpecification',
  'ExposureTime',
  'FNumber',
  'ExposureProgram',
  'ISOSpeedRatings',
  'PhotographicSensitivity',
  'ShutterSpeedValue',
  'ApertureValue',
  'BrightnessValue',
  'ExposureBiasValue',
  'MaxApertureValue',
  'MeteringMode',
  'LightSource',
  'Flash',
  'FocalLength',
  'FocalLengthIn35mmFilm',
  'ColorSpace',
  'SensingMethod',
  'ExposureMode',
  'WhiteBalance',
  'DigitalZoomRatio',
  'SceneCaptureType',
  'Contrast',
  'Saturation',
  'Sharpness',
  'XResolution',
  'YResolution',
  'ResolutionUnit',
]);

const MAX_TEXT = 128;
const MAX_LIST = 16;
// Control characters, which have no place in a camera's name.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** The kept tags of a parsed EXIF block, each reduced to a small JSON value; anything odd is dropped. */
export function keptExif(tags: Readonly<Record<string, unknown>>): ExifData {
  const kept: Record<string, ExifValue> = {};
  for (const [name, value] of Object.entries(tags)) {
    if (!KEPT_EXIF_TAGS.has(name)) continue;
    const clean = cleanValue(value);
    if (clean !== undefined) kept[name] = clean;
  }
  return kept;
}

function cleanValue(value: unknown): ExifValue | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.replace(CONTROL, '').trim();
    return text ? text.slice(0, MAX_TEXT) : undefined;
  }
  if (Array.isArray(value) && value.length > 0 && value.length <= MAX_LIST && value.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    return [...(value as number[])];
  }
  return undefined;
}
