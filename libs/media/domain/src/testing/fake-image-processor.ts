import { ascii, asciiBytes } from './ascii.js';
import { readAll } from '../model/bytes.js';
import { isImageFormat } from '../model/image-format.js';
import { ImageProcessor, type RenditionSpec, type SniffedType } from '../ports/image-processor.js';
import type { ByteStream } from '../ports/media-store.js';

/**
 * Reads "images" written by `fakeImage` (a text header, then padding) and renders text files that
 * say what was asked, so unit tests check the pipeline without a real codec.
 */
export class FakeImageProcessor extends ImageProcessor {
  readonly rendered: RenditionSpec[] = [];
  /** Set to make every render fail (a file that decodes badly). */
  failRenders = false;

  async probe(head: Uint8Array): Promise<SniffedType> {
    const text = ascii(head.subarray(0, 200));
    if (text.startsWith('<svg')) return { kind: 'other', mime: 'image/svg+xml' };
    if (text.startsWith('%PDF-')) return { kind: 'other', mime: 'application/pdf' };
    const match = /^FAKEIMG (\w+) (\d+)x(\d+) o(\d) a(\d) exif=(\{[^\n]*\})\n/.exec(text);
    if (!match || !isImageFormat(match[1]!)) return { kind: 'unknown' };
    if (match[1] === 'heic') return { kind: 'other', mime: 'image/heic' };
    return {
      kind: 'image',
      header: { format: match[1], width: Number(match[2]), height: Number(match[3]), orientation: Number(match[4]), hasAlpha: match[5] === '1', exif: JSON.parse(match[6]!) as Record<string, unknown> },
    };
  }

  render(source: ByteStream, spec: RenditionSpec): ByteStream {
    this.rendered.push(spec);
    const fail = this.failRenders;
    return (async function* () {
      await readAll(source);
      if (fail) throw new Error('cannot decode');
      yield asciiBytes(`RENDERED ${spec.width}x${spec.height} ${spec.mode} ${spec.format} r${spec.rotation} crop=${JSON.stringify(spec.crop)}`);
    })();
  }
}

/** The bytes of a fake image `FakeImageProcessor` reads. */
export function fakeImage(format: string, width: number, height: number, options: { orientation?: number; alpha?: boolean; exif?: Record<string, unknown>; padding?: number } = {}): Uint8Array {
  const header = `FAKEIMG ${format} ${width}x${height} o${options.orientation ?? 1} a${options.alpha ? 1 : 0} exif=${JSON.stringify(options.exif ?? {})}\n`;
  const bytes = new Uint8Array(header.length + (options.padding ?? 100));
  bytes.set(asciiBytes(header));
  return bytes;
}
