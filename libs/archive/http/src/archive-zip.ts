import { open, rm, type FileHandle } from 'node:fs/promises';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { crc32, createDeflateRaw, deflateRaw, deflateRawSync } from 'node:zlib';

const deflate = promisify(deflateRaw);

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const END = 0x06054b50;
/** ZIP 4.5 (ZIP64), made on Unix (so the external attributes are a mode). */
const VERSION_NEEDED = 45;
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED;
/** Bit 3: sizes and CRC in a data descriptor after the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
const DEFLATE = 8;
/** A regular file, rw-r--r--. */
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;
/** Central directory records gathered before they are written to the side file. */
const DIRECTORY_BUFFER = 64 * 1024;
const COMPRESSION_LEVEL = 6;
/** Smaller buffers are compressed at once (a trip to the thread pool costs more than that). */
const SYNC_DEFLATE_BYTES = 8 * 1024;

const closed = () => new Error('The archive output closed before every entry was written');

/**
 * The archive's ZIP writer: each entry is compressed (deflate) and written through `output` as it
 * comes (with back-pressure), its size and CRC in a data descriptor after its data, so nothing of
 * an entry is kept once it is written. The central directory, one record per entry that the ZIP
 * format puts at the end, is written to a side file as the entries go (`directoryPath`, opened
 * here and removed at the end) and copied out at `finalize()`: what the writer holds in memory
 * does not grow with the number of entries. ZIP64 records where the archive needs them (more than
 * 65,535 entries, offsets past 4 GiB); one entry is at most 4 GiB (a document or an image).
 */
export class ArchiveZip {
  private readonly out = new PassThrough();
  private readonly directory: Promise<FileHandle>;
  /** Bytes written to `output` so far (the next entry's offset). */
  private offset = 0;
  private entries = 0;
  private directorySize = 0;
  private directoryChunks: Buffer[] = [];
  private directoryPending = 0;
  /** The entries are written one after another. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly directoryPath: string) {
    this.directory = open(directoryPath, 'wx+');
    this.directory.catch(() => undefined); // the first entry's write rejects with it
  }

  /** The ZIP file's bytes. */
  get output(): Readable {
    return this.out;
  }

  /** Adds one entry; resolves once all of it is written to the output. */
  add(source: Buffer | Readable, data: { name: string; date: Date }): Promise<void> {
    const added = this.queue.then(() => this.write(source, data));
    this.queue = added.catch(() => undefined);
    return added;
  }

  /** No more entries: the central directory follows, then the output ends (or is destroyed with the error). */
  finalize(): void {
    this.queue = this.queue
      .then(() => this.finish())
      .then(
        () => void this.out.end(),
        (error: Error) => void this.out.destroy(error),
      )
      .finally(() => this.removeDirectory());
  }

  destroy(): void {
    this.out.destroy();
    void this.queue.finally(() => this.removeDirectory());
  }

  private async write(source: Buffer | Readable, data: { name: string; date: Date }): Promise<void> {
    if (this.out.destroyed) {
      if (!Buffer.isBuffer(source)) source.destroy();
      throw closed();
    }
    const name = Buffer.from(data.name, 'utf8');
    const offset = this.offset;
    const { time, day } = dosTime(data.date);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    header.writeUInt16LE(VERSION_NEEDED, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(day, 12);
    // CRC and sizes (14-25): 0 here, in the data descriptor.
    header.writeUInt16LE(name.length, 26);
    await this.push(Buffer.concat([header, name]));

    let crc = 0;
    let size = 0;
    let compressed = 0;
    if (Buffer.isBuffer(source)) {
      crc = crc32(source);
      size = source.length;
      const deflated = source.length <= SYNC_DEFLATE_BYTES ? deflateRawSync(source, { level: COMPRESSION_LEVEL }) : await deflate(source, { level: COMPRESSION_LEVEL });
      compressed = deflated.length;
      await this.push(deflated);
    } else {
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          crc = crc32(chunk, crc);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(source, measure, createDeflateRaw({ level: COMPRESSION_LEVEL }), async (deflated: AsyncIterable<Buffer>) => {
        for await (const chunk of deflated) {
          compressed += chunk.length;
          await this.push(chunk);
        }
      });
    }
    if (size > MAX_32 || compressed > MAX_32) throw new Error(`archive entry ${data.name} is larger than 4 GiB`);
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.push(descriptor);
    await this.record(centralRecord(name, time, day, crc, compressed, size, offset));
  }

  /** The central directory (from the side file), then the end records. */
  private async finish(): Promise<void> {
    await this.flushDirectory();
    const start = this.offset;
    const handle = await this.directory;
    for (let position = 0; position < this.directorySize; ) {
      const chunk = Buffer.allocUnsafe(Math.min(DIRECTORY_BUFFER, this.directorySize - position));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead <= 0) throw new Error('the central directory side file is shorter than what was written to it');
      await this.push(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
    const size = this.directorySize;
    const zip64 = this.entries >= MAX_16 || start >= MAX_32 || size >= MAX_32;
    if (zip64) {
      const end64 = Buffer.alloc(56);
      end64.writeUInt32LE(ZIP64_END, 0);
      end64.writeBigUInt64LE(44n, 4);
      end64.writeUInt16LE(VERSION_MADE_BY, 12);
      end64.writeUInt16LE(VERSION_NEEDED, 14);
      end64.writeBigUInt64LE(BigInt(this.entries), 24);
      end64.writeBigUInt64LE(BigInt(this.entries), 32);
      end64.writeBigUInt64LE(BigInt(size), 40);
      end64.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(ZIP64_LOCATOR, 0);
      locator.writeBigUInt64LE(BigInt(start + size), 8);
      locator.writeUInt32LE(1, 16);
      await this.push(Buffer.concat([end64, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END, 0);
    end.writeUInt16LE(Math.min(this.entries, MAX_16), 8);
    end.writeUInt16LE(Math.min(this.entries, MAX_16), 10);
    end.writeUInt32LE(Math.min(size, MAX_32), 12);
    end.writeUInt32LE(Math.min(start, MAX_32), 16);
    await this.push(end);
  }

  /** Writes to the output, waiting while it is full; rejects once it is closed (a client gone, a failed write). */
  private async push(chunk: Buffer): Promise<void> {
    if (this.out.destroyed) throw closed();
    this.offset += chunk.length;
    if (this.out.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const drained = () => {
        this.out.off('close', gone);
        resolve();
      };
      const gone = () => {
        this.out.off('drain', drained);
        reject(closed());
      };
      this.out.once('drain', drained);
      this.out.once('close', gone);
    });
  }

  private async record(record: Buffer): Promise<void> {
    this.entries++;
    this.directoryChunks.push(record);
    this.directoryPending += record.length;
    if (this.directoryPending >= DIRECTORY_BUFFER) await this.flushDirectory();
  }

  private async flushDirectory(): Promise<void> {
    if (!this.directoryPending) return;
    const chunk = Buffer.concat(this.directoryChunks, this.directoryPending);
    this.directoryChunks = [];
    this.directoryPending = 0;
    const handle = await this.directory;
    for (let written = 0; written < chunk.length; ) {
      const { bytesWritten } = await handle.write(chunk, written, chunk.length - written, this.directorySize);
      written += bytesWritten;
      this.directorySize += bytesWritten;
    }
  }

  private async removeDirectory(): Promise<void> {
    try {
      await (await this.directory).close();
    } catch {
      // Not opened, or closed already.
    }
    await rm(this.directoryPath, { force: true });
  }
}

/** An entry's record in the central directory (its local header's offset in a ZIP64 field past 4 GiB). */
function centralRecord(name: Buffer, time: number, day: number, crc: number, compressed: number, size: number, offset: number): Buffer {
  const zip64 = offset >= MAX_32;
  const record = Buffer.alloc(46 + name.length + (zip64 ? 12 : 0));
  record.writeUInt32LE(CENTRAL_HEADER, 0);
  record.writeUInt16LE(VERSION_MADE_BY, 4);
  record.writeUInt16LE(VERSION_NEEDED, 6);
  record.writeUInt16LE(FLAGS, 8);
  record.writeUInt16LE(DEFLATE, 10);
  record.writeUInt16LE(time, 12);
  record.writeUInt16LE(day, 14);
  record.writeUInt32LE(crc >>> 0, 16);
  record.writeUInt32LE(compressed, 20);
  record.writeUInt32LE(size, 24);
  record.writeUInt16LE(name.length, 28);
  record.writeUInt16LE(zip64 ? 12 : 0, 30);
  // Comment length, disk, internal attributes: 0.
  record.writeUInt32LE(FILE_ATTRIBUTES, 38);
  record.writeUInt32LE(zip64 ? MAX_32 : offset, 42);
  name.copy(record, 46);
  if (zip64) {
    const extra = 46 + name.length;
    record.writeUInt16LE(0x0001, extra);
    record.writeUInt16LE(8, extra + 2);
    record.writeBigUInt64LE(BigInt(offset), extra + 4);
  }
  return record;
}

/** MS-DOS time and date (local time, 2-second steps, 1980 to 2107), as ZIP headers keep them. */
function dosTime(date: Date): { time: number; day: number } {
  const year = date.getFullYear();
  if (year < 1980) return { time: 0, day: (1 << 5) | 1 };
  if (year > 2107) return { time: (23 << 11) | (59 << 5) | 29, day: (127 << 9) | (12 << 5) | 31 };
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}
