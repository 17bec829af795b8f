import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { bytesOf } from '@rc/media-domain';
import { FfmpegVideoProcessor, locateFfmpeg, parseFfmpegReport } from './ffmpeg-video-processor.js';

describe('FfmpegVideoProcessor (the ffmpeg binary the npm dependency ships)', () => {
  let ffmpeg: string;
  let dir: string;
  let spool: string;

  const video = async (name: string, args: string[]): Promise<Uint8Array> => {
    const out = join(dir, name);
    await new Promise<void>((resolve, reject) => execFile(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-f', 'lavfi', ...args, '-y', out], (e) => (e ? reject(e) : resolve())));
    return new Uint8Array(await readFile(out));
  };

  beforeAll(async () => {
    const found = await locateFfmpeg();
    expect(['path', 'npm']).toContain(found.source);
    ffmpeg = found.path!;
    dir = await mkdtemp(join(tmpdir(), 'rc-ffmpeg-spec-'));
    spool = await mkdtemp(join(tmpdir(), 'rc-ffmpeg-spool-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(spool, { recursive: true, force: true });
  });

  it('reads an MP4: duration, size and a JPEG frame of that size; the spooled file is removed', async () => {
    const mp4 = await video('a.mp4', ['-i', 'testsrc=size=320x240:rate=10', '-t', '3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p']);
    const processor = new FfmpegVideoProcessor({ ffmpegPath: ffmpeg, tmpDir: spool });
    expect(processor.available).toBe(true);
    const probe = await processor.probe(bytesOf(mp4, 1000), 'mp4');
    expect(probe).toMatchObject({ durationMs: 3000, width: 320, height: 240 });
    const meta = await sharp(Buffer.from(probe.frame!)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 240]);
    expect(await readdir(spool)).toEqual([]);
  });

  it('takes the first frame of a video shorter than a second (WebM)', async () => {
    const webm = await video('b.webm', ['-i', 'testsrc=size=160x120:rate=10', '-t', '0.5', '-c:v', 'libvpx']);
    const probe = await new FfmpegVideoProcessor({ ffmpegPath: ffmpeg }).probe(bytesOf(webm), 'webm');
    expect(probe).toMatchObject({ width: 160, height: 120 });
    expect(probe.durationMs).toBeGreaterThan(0);
    expect(probe.durationMs).toBeLessThanOrEqual(600);
    expect(probe.frame!.length).toBeGreaterThan(100);
  });

  it('rejects bytes that are no video (an MP4 header over junk), leaving nothing behind', async () => {
    const junk = new Uint8Array(4096).fill(7);
    junk.set(Buffer.from('\u0000\u0000\u0000\u0018ftypmp42', 'latin1'));
    await expect(new FfmpegVideoProcessor({ ffmpegPath: ffmpeg, tmpDir: spool }).probe(bytesOf(junk), 'mp4')).rejects.toThrow(/no video stream/);
    expect(await readdir(spool)).toEqual([]);
  });

  it('reads only the container it is told: a playlist that would open another file is no video', async () => {
    const mp4 = await video('secret.mp4', ['-i', 'testsrc=size=320x240:rate=10', '-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p']);
    expect(mp4.length).toBeGreaterThan(0);
    const playlist = new TextEncoder().encode(`#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${join(dir, 'secret.mp4')}\n#EXT-X-ENDLIST\n`);
    const processor = new FfmpegVideoProcessor({ ffmpegPath: ffmpeg });
    await expect(processor.probe(bytesOf(playlist), 'mp4')).rejects.toThrow(/no video stream/);
    await expect(processor.probe(bytesOf(playlist), 'webm')).rejects.toThrow(/no video stream/);
  });

  it('without a decoder: not available, and a probe says why', async () => {
    const none = new FfmpegVideoProcessor({ ffmpegPath: null });
    expect(none.available).toBe(false);
    await expect(none.probe(bytesOf(new Uint8Array(1)), 'mp4')).rejects.toThrow(/No video decoder/);
    await expect(locateFfmpeg('/nonexistent/ffmpeg')).rejects.toThrow(/not an executable/);
  });

  it('prefers the system ffmpeg on the PATH to the npm-shipped build, which is the fallback', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'rc-ffmpeg-path-'));
    const saved = process.env['PATH'];
    try {
      await writeFile(join(bin, 'ffmpeg'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      process.env['PATH'] = bin;
      expect(await locateFfmpeg()).toEqual({ path: join(bin, 'ffmpeg'), source: 'path' });
      process.env['PATH'] = join(bin, 'missing');
      expect((await locateFfmpeg()).source).toBe('npm');
    } finally {
      process.env['PATH'] = saved;
      await rm(bin, { recursive: true, force: true });
    }
  });

  it('reads the shown size of a rotated (phone) video from the report', () => {
    const report = [
      '  Duration: 00:01:02.50, start: 0.000000, bitrate: 43 kb/s',
      '    Stream #0:0(eng): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1920x1080 [SAR 1:1 DAR 16:9], 39 kb/s, 30 fps (default)',
      '    Metadata:',
      '      rotate          : 90',
    ].join('\n');
    expect(parseFfmpegReport(report)).toEqual({ durationMs: 62_500, width: 1080, height: 1920 });
    expect(parseFfmpegReport(report.replace('rotate          : 90', 'displaymatrix: rotation of -180.00 degrees'))).toEqual({ durationMs: 62_500, width: 1920, height: 1080 });
    expect(parseFfmpegReport('Stream #0:0: Audio: aac, 44100 Hz')).toBeNull();
  });
});
