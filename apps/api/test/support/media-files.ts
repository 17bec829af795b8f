import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A width × height picture, red on its left half and blue on its right. */
function halves(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(x < width / 2 ? [255, 0, 0] : [0, 0, 255], (y * width + x) * 3);
  }
  return raw;
}

/** A JPEG as a phone writes it: stored sideways (EXIF orientation 6) with a GPS position and a camera. */
export function phoneJpeg(width = 800, height = 600): Promise<Buffer> {
  return sharp(halves(width, height), { raw: { width, height, channels: 3 } })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Fixer 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 4032/100' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export function plainJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(halves(width, height), { raw: { width, height, channels: 3 } }).jpeg().toBuffer();
}

/** A valid PNG header declaring width × height with a few bytes of pixels: a decompression bomb. */
export function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A short test-pattern video made by the ffmpeg binary the `@ffmpeg-installer/ffmpeg` dependency
 * ships: `mp4` (H.264), `webm` (VP8) or `mov` (H.264 in QuickTime).
 */
export async function testVideo(format: 'mp4' | 'webm' | 'mov', options: { width?: number; height?: number; seconds?: number } = {}): Promise<Buffer> {
  const { execFile } = await import('node:child_process');
  const { mkdtemp, readFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { createRequire } = await import('node:module');
  const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const dir = await mkdtemp(join(tmpdir(), 'rc-test-video-'));
  try {
    const out = join(dir, `video.${format}`);
    const size = `${options.width ?? 320}x${options.height ?? 240}`;
    const codec = format === 'webm' ? ['-c:v', 'libvpx'] : ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'];
    await new Promise<void>((resolve, reject) =>
      execFile(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=10`, '-t', String(options.seconds ?? 2), ...codec, '-y', out], (error) => (error ? reject(error) : resolve())),
    );
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A small valid PDF of one empty page. */
export function tinyPdf(): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
