import { keptExif } from './exif.js';
import { Image, type ImageHeader } from './image.js';
import { formatOfFilename, renditionFormat } from './image-format.js';
import { centredCrop, ratioOf, turnRect } from './image-ratio.js';
import { IMAGE_SIZE_NAMES, renditionDimensions } from './image-sizes.js';
import { isGuid, parseMediaRef, type ImageId } from './media-ids.js';
import { isStoreKey } from '../ports/media-store.js';

const header = (over: Partial<ImageHeader> = {}): ImageHeader => ({ format: 'jpeg', width: 4000, height: 3000, orientation: 1, hasAlpha: false, exif: {}, ...over });
const upload = (over: Partial<ImageHeader> = {}, cropToRatio: 'ONE_ONE' | 'FOUR_THREE' | null = null) =>
  Image.upload({ id: 7 as ImageId, guid: 'Abcdefghijklmnop', ownerId: 3, filename: 'a.jpg', header: header(over), byteSize: 1234, cropToRatio, now: new Date('2026-01-01T00:00:00Z') });

describe('the size table (reference §3.1)', () => {
  it('gives a 4:3 image exactly each box', () => {
    const sizes = Object.fromEntries(IMAGE_SIZE_NAMES.map((n) => [n, renditionDimensions(4000, 3000, n)]));
    expect(sizes).toEqual({
      mini: { width: 56, height: 42 },
      thumbnail: { width: 96, height: 72 },
      '140x105': { width: 140, height: 105 },
      '200x150': { width: 200, height: 150 },
      standard: { width: 300, height: 225 },
      '440x330': { width: 440, height: 330 },
      medium: { width: 592, height: 444 },
      large: { width: 800, height: 600 },
      huge: { width: 1600, height: 1200 },
    });
  });

  it('fits a portrait image within the named boxes and crops the fixed ones', () => {
    expect(renditionDimensions(3000, 4000, 'standard')).toEqual({ width: 169, height: 225 });
    expect(renditionDimensions(3000, 4000, '200x150')).toEqual({ width: 200, height: 150 });
    expect(renditionDimensions(3000, 4000, 'original')).toEqual({ width: 3000, height: 4000 });
  });

  it('never enlarges a named size, but fills a fixed one', () => {
    expect(renditionDimensions(100, 60, 'large')).toEqual({ width: 100, height: 60 });
    expect(renditionDimensions(100, 60, '440x330')).toEqual({ width: 440, height: 330 });
  });
});

describe('ratios and crops', () => {
  it.each([
    [1000, 1000, 'ONE_ONE'],
    [1001, 1000, 'ONE_ONE'],
    [800, 600, 'FOUR_THREE'],
    [1001, 750, 'FOUR_THREE'],
    [600, 800, 'VARIABLE'],
    [1920, 1080, 'VARIABLE'],
  ])('%i×%i is %s', (w, h, ratio) => expect(ratioOf(w, h)).toBe(ratio));

  it('cuts the largest centred rectangle of the ratio', () => {
    expect(centredCrop(1920, 1080, 'FOUR_THREE')).toEqual({ left: 240, top: 0, width: 1440, height: 1080 });
    expect(centredCrop(1000, 2000, 'ONE_ONE')).toEqual({ left: 0, top: 500, width: 1000, height: 1000 });
    expect(centredCrop(1000, 2000, 'FOUR_THREE')).toEqual({ left: 0, top: 625, width: 1000, height: 750 });
  });
});

describe('Image', () => {
  it('shows the upright size of an image the camera turned (EXIF orientation 6)', () => {
    const image = upload({ orientation: 6 });
    expect([image.state.width, image.state.height, image.ratio]).toEqual([3000, 4000, 'VARIABLE']);
  });

  it('crops an upload to the ratio asked for, in upright coordinates', () => {
    const image = upload({ width: 1920, height: 1080 }, 'ONE_ONE');
    expect(image.state.crop).toEqual({ left: 420, top: 0, width: 1080, height: 1080 });
    expect(image.ratio).toBe('ONE_ONE');
  });

  it('keeps only non-personal EXIF', () => {
    const image = upload({ exif: { Make: 'Canon', Model: 'EOS', GPSLatitude: [1, 2, 3], BodySerialNumber: '123', Artist: 'Someone', DateTimeOriginal: '2020:01:01', FNumber: 2.8, MakerNote: 'x' } });
    expect(image.state.exif).toEqual({ Make: 'Canon', Model: 'EOS', FNumber: 2.8 });
  });

  it('is ready once every rendition of its version is recorded; other versions are refused', () => {
    const image = upload();
    expect(image.missingRenditions[0]).toBe('original');
    for (const name of image.missingRenditions) expect(image.recordRendition(1, name, { ...image.renditionSize(name), format: 'jpeg', bytes: 1 })).toBe(true);
    expect(image.state.status).toBe('ready');
    expect(image.recordRendition(2, 'mini', { width: 1, height: 1, format: 'jpeg', bytes: 1 })).toBe(false);
  });

  it('turns a quarter: sides swap, a new version with no renditions, stale keys answered', () => {
    const image = upload({ width: 800, height: 600 });
    image.recordRendition(1, 'mini', { width: 56, height: 42, format: 'jpeg', bytes: 1 });
    const stale = image.rotate(90);
    expect(stale).toEqual(['images/Abcdefghijklmnop/v1/mini.jpg']);
    expect(image.state).toMatchObject({ width: 600, height: 800, rotation: 90, version: 2, renditions: {}, status: 'processing' });
    image.rotate(270);
    expect(image.state).toMatchObject({ width: 800, height: 600, rotation: 0, version: 3 });
  });

  it('shows content its id, GUID, version and the sizes made of its current version, in the size table\'s order', () => {
    const image = upload({ width: 800, height: 600 });
    expect(image.shown).toEqual({ id: 7, guid: 'Abcdefghijklmnop', version: 1, sizes: [] });
    for (const name of ['original', 'large', 'mini'] as const) image.recordRendition(1, name, { width: 1, height: 1, format: 'jpeg', bytes: 1 });
    expect(image.shown.sizes).toEqual(['mini', 'large', 'original']);
    image.rotate(90);
    image.recordRendition(2, 'thumbnail', { width: 1, height: 1, format: 'jpeg', bytes: 1 });
    expect(image.shown).toEqual({ id: 7, guid: 'Abcdefghijklmnop', version: 2, sizes: ['thumbnail'] });
  });

  it('writes renditions as a web format without the source metadata', () => {
    expect(renditionFormat('tiff', false, true)).toBe('jpeg');
    expect(renditionFormat('webp', true, true)).toBe('webp');
    expect(renditionFormat('webp', true, false)).toBe('png');
    expect(renditionFormat('gif', false, false)).toBe('jpeg');
    expect(upload({ format: 'png', hasAlpha: true }).renditionKey('large')).toBe('images/Abcdefghijklmnop/v1/large.png');
  });
});

describe('names and keys', () => {
  it('reads file extensions', () => {
    expect(['x.JPG', 'a.b.jpeg', 'p.png', 'h.heic', 'noext', 'x.svg', 't.tif'].map(formatOfFilename)).toEqual(['jpeg', 'jpeg', 'png', 'heic', null, null, 'tiff']);
  });

  it('tells ids from GUIDs', () => {
    expect(parseMediaRef('42')).toEqual({ id: 42 });
    expect(parseMediaRef('FucWIkw2ZEBiIJHk')).toEqual({ guid: 'FucWIkw2ZEBiIJHk' });
    expect(parseMediaRef('1234567890123456')).toBeNull();
    expect(parseMediaRef('../etc')).toBeNull();
    expect(isGuid('0ucWIkw2ZEBiIJHk')).toBe(false);
  });

  it('accepts only safe store keys', () => {
    expect(isStoreKey('images/Abc/v1/mini.jpg')).toBe(true);
    expect(['../x', 'a/../b', '/abs', 'a//b', 'a/./b', 'a b', 'a/', '.', ''].map(isStoreKey)).toEqual(Array(9).fill(false));
  });

  it('cleans kept EXIF values', () => {
    expect(keptExif({ Make: ' Ca\u0000non ', Model: '', FNumber: Number.NaN, LensSpecification: [1, 2, 3, 4], Software: { a: 1 } })).toEqual({ Make: 'Canon', LensSpecification: [1, 2, 3, 4] });
  });
});

describe('turnRect', () => {
  const rect = { left: 10, top: 20, width: 30, height: 40 };
  it.each([
    [90, { left: 40, top: 10, width: 40, height: 30 }],
    [180, { left: 160, top: 40, width: 30, height: 40 }],
    [270, { left: 20, top: 160, width: 40, height: 30 }],
  ] as const)('turns a rectangle of a 200×100 image by %i°', (deg, expected) => {
    expect(turnRect(rect, 200, 100, deg)).toEqual(expected);
  });
});
