import { spawn } from 'node:child_process';
import { constants, createWriteStream } from 'node:fs';
import { access, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { VideoProcessor, type ByteStream, type VideoFormat, type VideoMetadata, type VideoProbe } from '@rc/media-domain';

/**
 * ffmpeg's demuxer for each accepted container. The input is always read with the one named, never
 * guessed: a file that is in fact a playlist or a concat list (demuxers that open other files or
 * URLs) is then no video at all. Local files are the only protocol allowed.
 */
const DEMUXERS: Readonly<Record<VideoFormat, string>> = { mp4: 'mov', mov: 'mov', webm: 'matroska' };

/** Where the decoder comes from: a path the operator named, `ffmpeg` on the PATH, the binary an npm package ships, or none. */
export type FfmpegSource = 'configured' | 'npm' | 'path' | 'none';

/** Largest poster frame read back (a JPEG of one frame; far more is no frame). */
const MAX_FRAME_BYTES = 32 * 1024 * 1024;
/** What is kept of ffmpeg's report (the input's description comes first). */
const MAX_REPORT_CHARS = 256 * 1024;

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * Finds ffmpeg: `configured` (a path, refused when not executable), else `ffmpeg` on the PATH (the
 * system's package, kept current by its security updates), else the binary shipped by the
 * `@ffmpeg-installer/ffmpeg` package (an npm dependency: an older build, so only a fallback);
 * `null` when there is none.
 */
export async function locateFfmpeg(configured?: string | null): Promise<{ path: string | null; source: FfmpegSource }> {
  if (configured) {
    if (!(await executable(configured))) throw new Error(`MEDIA_FFMPEG_PATH ${configured} is not an executable file`);
    return { path: configured, source: 'configured' };
  }
  for (const dir of (process.env['PATH'] ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'ffmpeg');
    if (await executable(candidate)) return { path: candidate, source: 'path' };
  }
  try {
    const shipped = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    if (await executable(shipped)) return { path: shipped, source: 'npm' };
  } catch {
    // The package has no binary for this platform (it throws), or is not installed.
  }
  return { path: null, source: 'none' };
}

/** Reads duration and the shown size from ffmpeg's description of its input; `null` when it names no video stream. */
export function parseFfmpegReport(report: string): VideoMetadata | null {
  const stream = /Stream #\d+:\d+[^\n]*?: Video: [^\n]*?, (\d{1,5})x(\d{1,5})[\s,]/.exec(report);
  if (!stream) return null;
  let width = Number(stream[1]);
  let height = Number(stream[2]);
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(report);
  const durationMs = duration ? Math.round((Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3])) * 1000) : 0;
  // Phones store portrait videos sideways with a rotation to apply: the shown size is turned.
  const rotation = /rotate\s*:\s*(-?\d+)/.exec(report)?.[1] ?? /rotation of (-?\d+(?:\.\d+)?) degrees/.exec(report)?.[1];
  if (rotation && Math.abs(Math.round(Number(rotation))) % 180 === 90) [width, height] = [height, width];
  return { durationMs, width, height };
}

export interface FfmpegVideoProcessorOptions {
  /** The ffmpeg binary; `null`: no decoder (videos get no poster or metadata). */
  readonly ffmpegPath: string | null;
  /** Longest one ffmpeg run may take (default 2 minutes); then it is killed and the probe fails. */
  readonly timeoutMs?: number;
  /** Where videos are spooled while read (default: the system's temporary folder). */
  readonly tmpDir?: string;
}

/**
 * Reads videos with ffmpeg, run as a separate process on a file (never a shell): the video is
 * streamed from the store to a temporary file (MP4s often keep their index at the end, which a
 * pipe cannot seek to), ffmpeg cuts one frame at one second (or the first, for a shorter video) as a
 * JPEG, and its description of the input gives the duration and size. The folder is removed after.
 */
export class FfmpegVideoProcessor extends VideoProcessor {
  constructor(private readonly options: FfmpegVideoProcessorOptions) {
    super();
  }

  get available(): boolean {
    return this.options.ffmpegPath !== null;
  }

  async probe(source: ByteStream, format: VideoFormat): Promise<VideoProbe> {
    const ffmpeg = this.options.ffmpegPath;
    if (!ffmpeg) throw new Error('No video decoder (ffmpeg) is available');
    const demuxer = DEMUXERS[format];
    if (!demuxer) throw new Error(`Not a video container the service reads: ${String(format)}`);
    const dir = await mkdtemp(join(this.options.tmpDir ?? tmpdir(), 'rc-video-'));
    try {
      const input = join(dir, 'input');
      await pipeline(Readable.from(source, { objectMode: false }), createWriteStream(input, { flags: 'wx' }));
      const frame = join(dir, 'frame.jpg');
      const read = ['-protocol_whitelist', 'file', '-f', demuxer];
      let report = await this.run(ffmpeg, ['-ss', '1', ...read, '-i', input, '-frames:v', '1', '-an', '-f', 'image2', '-c:v', 'mjpeg', '-q:v', '3', '-y', frame]);
      const metadata = parseFfmpegReport(report.text);
      if (!metadata) throw new Error(`ffmpeg found no video stream: ${lastLine(report.text)}`);
      if (!(await nonEmpty(frame))) {
        // Shorter than a second: the first frame.
        report = await this.run(ffmpeg, [...read, '-i', input, '-frames:v', '1', '-an', '-f', 'image2', '-c:v', 'mjpeg', '-q:v', '3', '-y', frame]);
      }
      const size = (await stat(frame).catch(() => null))?.size ?? 0;
      return { ...metadata, frame: size > 0 && size <= MAX_FRAME_BYTES ? new Uint8Array(await readFile(frame)) : null };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Runs ffmpeg; answers its report (stderr), whatever its exit code (no output is no frame, not an error here). */
  private run(ffmpeg: string, args: string[]): Promise<{ text: string; code: number | null }> {
    return new Promise((resolve, reject) => {
      const child = spawn(ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'info', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let text = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        if (text.length < MAX_REPORT_CHARS) text += chunk;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), this.options.timeoutMs ?? 120_000);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (signal) reject(new Error(`ffmpeg was stopped (${signal}): the video took too long to read`));
        else resolve({ text, code });
      });
    });
  }
}

async function nonEmpty(path: string): Promise<boolean> {
  return ((await stat(path).catch(() => null))?.size ?? 0) > 0;
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.slice(0, 300) ?? '';
}
