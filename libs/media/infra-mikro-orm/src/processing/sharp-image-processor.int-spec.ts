import type { Readable } from 'node:stream';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { bytesOf, IMAGE_SIZE_NAMES, RequestImageRotation, ImageTooManyPixelsError, ImageTooSmallError, ImageTypeMismatchError, readAll, RENDITION_NAMES, UnsupportedImageTypeError, type Image } from '@rc/media-domain';
import { mediaTestBed } from '@rc/media-domain/testing';
import { PROGRESSIVE_JPEG_MAX_PIXELS, SharpImageProcessor } from './sharp-image-processor.js';

const MAX_PIXELS = 100_000_000;
const processor = new SharpImageProcessor({ maxPixels: MAX_PIXELS });

/** A width × height picture, red on its left half and blue on its right. */
function halves(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(x < width / 2 ? [255, 0, 0] : [0, 0, 255], (y * width + x) * 3);
  }
  return raw;
}

/** A JPEG as a phone writes it: stored sideways with EXIF orientation 6, with a GPS position, an owner and a camera. */
async function phoneJpeg(width = 400, height = 300): Promise<Buffer> {
  return sharp(halves(width, height), { raw: { width, height, channels: 3 } })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Fixer 1', Artist: 'PRIVATE-ARTIST', Copyright: 'PRIVATE-ARTIST' },
      IFD2: { FNumber: '28/10', BodySerialNumber: 'SN-12345' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 4032/100' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A valid PNG header declaring width × height, with a few bytes of pixel data: a decompression bomb. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}

const probe = (bytes: Buffer) => processor.probe(new Uint8Array(bytes.subarray(0, 64 * 1024)), async () => bytesOf(bytes));
const pixel = async (bytes: Uint8Array, x: number, y: number) => {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
};
const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60;
const isBlue = ([r, g, b]: number[]) => b! > 200 && r! < 60 && g! < 60;

describe('SharpImageProcessor', () => {
  it('probes a phone JPEG from its header: stored size, orientation 6, EXIF tags but no GPS group', async () => {
    const result = await probe(await phoneJpeg());
    expect(result.kind).toBe('image');
    if (result.kind !== 'image') return;
    expect(result.header).toMatchObject({ format: 'jpeg', width: 400, height: 300, orientation: 6, hasAlpha: false });
    expect(result.header.exif).toMatchObject({ Make: 'TestCam', Model: 'Fixer 1' });
    expect(Object.keys(result.header.exif).filter((k) => k.startsWith('GPS'))).toEqual([]);
  });

  it('answers a PNG declaring 100000×100000 from its header alone, and a render refuses to decode it', async () => {
    const bomb = pngBomb(100000, 100000);
    const started = Date.now();
    const result = await probe(bomb);
    expect(result).toMatchObject({ kind: 'image', header: { format: 'png', width: 100000, height: 100000 } });
    expect(Date.now() - started).toBeLessThan(2000);
    const render = processor.render(bytesOf(bomb), { crop: null, rotation: 0, width: 100, height: 100, mode: 'fill', format: 'png' });
    await expect(readAll(render)).rejects.toThrow(/pixel limit/i);
  });

  it('holds a render back while others decode the pixels of its budget, and frees the budget when a render fails', async () => {
    const bounded = new SharpImageProcessor({ maxPixels: MAX_PIXELS, decodeBudgetPixels: 1_000_000 });
    const jpeg = await phoneJpeg(800, 600);
    const spec = { crop: null, rotation: 0, width: 80, height: 60, mode: 'fill', format: 'jpeg' } as const;
    const order: string[] = [];
    const first = bounded.render(bytesOf(jpeg), spec, 800_000);
    const second = bounded.render(bytesOf(jpeg), spec, 800_000);
    await new Promise((resolve) => setImmediate(resolve));
    // The second waits: 800,000 + 800,000 pixels exceed the budget of 1,000,000.
    expect(bounded.budget.held).toBe(800_000);
    await Promise.all([readAll(first).then(() => order.push('first')), readAll(second).then(() => order.push('second'))]);
    expect(order).toEqual(['first', 'second']);
    expect(bounded.budget.held).toBe(0);
    const bomb = pngBomb(100000, 100000);
    await expect(readAll(bounded.render(bytesOf(bomb), { ...spec, format: 'png' }, 100000 * 100000))).rejects.toThrow(/pixel limit/i);
    expect(bounded.budget.held).toBe(0);
    // A render its reader abandons (a store's failed upload destroys it) gives its share back.
    const abandoned = bounded.render(bytesOf(jpeg), spec, 800_000) as unknown as Readable;
    await new Promise((resolve) => setImmediate(resolve));
    expect(bounded.budget.held).toBe(800_000);
    const closed = new Promise((resolve) => abandoned.once('close', resolve));
    abandoned.destroy();
    await closed;
    await new Promise((resolve) => setImmediate(resolve));
    expect(bounded.budget.held).toBe(0);
  });

  it.each([
    ['an SVG', Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), { kind: 'other', mime: 'image/svg+xml' }],
    ['text', Buffer.from('This is a text file, whatever its name says.'), { kind: 'unknown' }],
    ['a PDF', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), { kind: 'other', mime: 'application/pdf' }],
  ])('names %s as no image it accepts', async (_name, bytes, expected) => {
    expect(await probe(bytes)).toEqual(expected);
  });

  it('decodes JPEG, PNG, GIF, WEBP, TIFF and AVIF here; not HEIC (no HEVC decoder in the prebuilt libvips)', () => {
    expect([...processor.decodable].sort()).toEqual(['avif', 'gif', 'jpeg', 'png', 'tiff', 'webp']);
  });

  it.each(['png', 'gif', 'webp', 'tiff', 'avif'] as const)('probes a %s', async (format) => {
    const bytes = await sharp(halves(120, 90), { raw: { width: 120, height: 90, channels: 3 } }).toFormat(format).toBuffer();
    expect(await probe(bytes)).toMatchObject({ kind: 'image', header: { format, width: 120, height: 90 } });
  });
});

describe('uploads through the real processor', () => {
  const bed = () => mediaTestBed({}, { processor });
  const renditionMeta = async (b: ReturnType<typeof bed>, image: Image, name: (typeof RENDITION_NAMES)[number]) => {
    const stored = await b.store.get(image.renditionKey(name));
    const bytes = await readAll(stored!.body);
    return { bytes, meta: await sharp(bytes).metadata() };
  };

  it('serves a phone photo upright and without GPS or other personal EXIF, keeping the camera as data', async () => {
    const b = bed();
    const image = await b.upload(1, 'IMG_0001.JPG', new Uint8Array(await phoneJpeg()));
    expect(image.state).toMatchObject({ width: 300, height: 400, orientation: 6, exif: { Make: 'TestCam', Model: 'Fixer 1', FNumber: 2.8 } });
    expect(Object.keys(image.state.exif)).not.toEqual(expect.arrayContaining(['Artist']));
    await b.runJobs();
    for (const name of RENDITION_NAMES) {
      const { bytes, meta } = await renditionMeta(b, image, name);
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      const text = Buffer.from(bytes).toString('latin1');
      for (const secret of ['PRIVATE-ARTIST', 'SN-12345', 'TestCam', 'GPS']) expect(text).not.toContain(secret);
    }
    const { bytes, meta } = await renditionMeta(b, image, 'original');
    expect([meta.width, meta.height, meta.format]).toEqual([300, 400, 'jpeg']);
    // Orientation 6 turns the picture a quarter clockwise: its left (red) half is now on top.
    expect(isRed(await pixel(bytes, 150, 20))).toBe(true);
    expect(isBlue(await pixel(bytes, 150, 380))).toBe(true);
  });

  it('makes every size at the size the table gives', async () => {
    const b = bed();
    const jpeg = await sharp(halves(1600, 1200), { raw: { width: 1600, height: 1200, channels: 3 } }).jpeg().toBuffer();
    const image = await b.upload(1, 'board.jpg', new Uint8Array(jpeg));
    await b.runJobs();
    const done = (await b.media.findImage({ id: image.id }))!;
    expect(done.state.status).toBe('ready');
    const sizes: Record<string, [number, number]> = {};
    for (const name of [...IMAGE_SIZE_NAMES, 'original'] as const) {
      const { meta } = await renditionMeta(b, done, name);
      sizes[name] = [meta.width!, meta.height!];
      expect(done.state.renditions[name]).toMatchObject({ width: meta.width, height: meta.height, format: 'jpeg' });
    }
    expect(sizes).toEqual({
      mini: [56, 42],
      thumbnail: [96, 72],
      '140x105': [140, 105],
      '200x150': [200, 150],
      standard: [300, 225],
      '440x330': [440, 330],
      medium: [592, 444],
      large: [800, 600],
      huge: [1600, 1200],
      original: [1600, 1200],
    });
  });

  it('writes JPEG sizes progressive, and the original of more pixels than the bound baseline (streamed by the encoder)', async () => {
    const b = bed();
    const [width, height] = [2400, 1800];
    expect(width * height).toBeGreaterThan(PROGRESSIVE_JPEG_MAX_PIXELS);
    const jpeg = await sharp(halves(width, height), { raw: { width, height, channels: 3 } }).jpeg().toBuffer();
    const image = await b.upload(1, 'wide.jpg', new Uint8Array(jpeg));
    await b.runJobs();
    const done = (await b.media.findImage({ id: image.id }))!;
    for (const name of IMAGE_SIZE_NAMES) expect([name, (await renditionMeta(b, done, name)).meta.isProgressive]).toEqual([name, true]);
    const { bytes, meta } = await renditionMeta(b, done, 'original');
    expect([meta.width, meta.height, meta.format, meta.isProgressive]).toEqual([width, height, 'jpeg', false]);
    expect(isRed(await pixel(bytes, 10, 900))).toBe(true);
    expect(isBlue(await pixel(bytes, 2390, 900))).toBe(true);
  });

  it('crops to the ratio asked, in upright coordinates, and rotates on request', async () => {
    const b = bed();
    const image = await b.upload(1, 'IMG.jpg', new Uint8Array(await phoneJpeg(800, 600)), { cropToRatio: 'ONE_ONE' });
    expect([image.state.width, image.state.height, image.ratio]).toEqual([600, 600, 'ONE_ONE']);
    await b.runJobs();
    const { bytes, meta } = await renditionMeta(b, image, 'original');
    expect([meta.width, meta.height]).toEqual([600, 600]);
    expect(isRed(await pixel(bytes, 300, 20))).toBe(true);
    expect(isBlue(await pixel(bytes, 300, 580))).toBe(true);

    await new RequestImageRotation(b.deps).execute({ ownerId: 1, ref: String(image.id), degrees: 90, jobId: 'turn' });
    await b.runJobs();
    const turned = (await b.media.findImage({ id: image.id }))!;
    const after = await renditionMeta(b, turned, 'original');
    // A quarter clockwise more: the red top is now on the right.
    expect(isRed(await pixel(after.bytes, 580, 300))).toBe(true);
    expect(isBlue(await pixel(after.bytes, 20, 300))).toBe(true);
  });

  it.each([
    ['a PNG bomb declaring 100000×100000', 'bomb.png', () => pngBomb(100000, 100000), ImageTooManyPixelsError],
    ['an SVG named .jpg', 'logo.jpg', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), UnsupportedImageTypeError],
    ['a text file named .jpg', 'notes.jpg', async () => Buffer.from('hello, I am text'), UnsupportedImageTypeError],
    ['a 10×10 image', 'tiny.png', () => sharp({ create: { width: 10, height: 10, channels: 3, background: '#888' } }).png().toBuffer(), ImageTooSmallError],
    ['PNG bytes named .jpg', 'x.jpg', () => sharp({ create: { width: 80, height: 60, channels: 3, background: '#888' } }).png().toBuffer(), ImageTypeMismatchError],
  ])('refuses %s before decoding anything (422), keeping no file', async (_name, filename, make, error) => {
    const b = bed();
    await expect(b.upload(1, filename, new Uint8Array(await make()))).rejects.toBeInstanceOf(error);
    expect(b.store.keys()).toEqual([]);
    expect(b.jobs.pending).toEqual([]);
  });

  it('turns a transparent PNG into PNG sizes that keep transparency', async () => {
    const b = bed();
    const png = await sharp({ create: { width: 200, height: 150, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 0.5 } } }).png().toBuffer();
    const image = await b.upload(1, 'alpha.png', new Uint8Array(png));
    await b.runJobs();
    const { meta } = await renditionMeta(b, image, 'standard');
    expect([meta.format, meta.hasAlpha, meta.width, meta.height]).toEqual(['png', true, 200, 150]);
  });
});
