import type { Readable } from 'node:stream';
import ZipStream from 'zip-stream';

type Write = (chunk: Buffer | string) => boolean;

// The stream write below ArchiveOutputStream's own `write` (which also counts the offset).
function streamWriteOf(stream: object): Write {
  let proto: object | null = Object.getPrototypeOf(stream) as object;
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'write')) proto = Object.getPrototypeOf(proto) as object | null;
  const below = proto ? (Object.getPrototypeOf(proto) as { write?: Write } | null) : null;
  if (!below?.write) throw new Error('zip-stream: unexpected class layout');
  return below.write;
}

const GATHER = 64 * 1024;

/**
 * zip-stream (the ZIP writer of the archiver project), with one change: at `finalize()`, the
 * central directory is written in 64 KiB pieces. The library writes it as some twenty small
 * buffers per entry in one synchronous loop, so with 100,000 entries two million write requests
 * would queue up in memory at once (about 600 MB); gathered, they are a few hundred.
 */
export class ArchiveZip extends ZipStream {
  constructor() {
    super({ zlib: { level: 6 } });
  }

  // compress-commons' hook (ZipArchiveOutputStream._finish) that writes the central directory and ends the stream.
  override _finish(): void {
    const self = this as unknown as { offset: number; write: Write; end: (...args: unknown[]) => unknown; _finish(): void };
    const streamWrite = streamWriteOf(this);
    const pending: Buffer[] = [];
    let length = 0;
    const flush = () => {
      if (!length) return;
      streamWrite.call(this, Buffer.concat(pending, length));
      pending.length = 0;
      length = 0;
    };
    const end = self.end;
    self.write = (chunk: Buffer | string) => {
      if (!chunk?.length) return true;
      // As the library counts it (its names are ASCII strings or UTF-8 buffers).
      self.offset += chunk.length;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      pending.push(bytes);
      length += bytes.length;
      if (length >= GATHER) flush();
      return true;
    };
    self.end = (...args: unknown[]) => {
      flush();
      delete (self as Partial<typeof self>).write;
      delete (self as Partial<typeof self>).end;
      return end.apply(this, args);
    };
    (Object.getPrototypeOf(ArchiveZip.prototype) as { _finish(this: unknown): void })._finish.call(this);
  }

  /** Adds one entry; resolves once the ZIP stream has taken all of it. */
  add(source: Buffer | Readable, data: { name: string; date: Date }): Promise<void> {
    return new Promise((resolve, reject) => {
      this.entry(source, data, (error) => (error ? reject(error) : resolve()));
    });
  }
}
