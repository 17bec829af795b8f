import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';

/**
 * The archive's ZIP writer, on yazl's public API: entries are compressed and written one after
 * another through `output` (with back-pressure, ZIP64 when the archive needs it), and each entry's
 * data is asked for only when its turn comes, so one entry at a time is in memory. The central
 * directory, written at `finalize()`, is one record per entry.
 */
interface EntrySlot {
  source: Buffer | Readable | null;
  resolve: (() => void) | null;
  reject: ((error: Error) => void) | null;
}

export class ArchiveZip {
  private readonly zip = new yazl.ZipFile();
  /** The entries not read whole yet: rejected if the output closes first (a client gone, a failed write). */
  private readonly pending = new Set<(error: Error) => void>();

  constructor() {
    this.output.once('close', () => {
      for (const reject of this.pending) reject(new Error('The archive output closed before every entry was written'));
      this.pending.clear();
    });
  }

  /** The ZIP file's bytes (yazl's output stream, a stream.PassThrough: typed as a plain readable stream). */
  get output(): Readable {
    return this.zip.outputStream as Readable;
  }

  /** Adds one entry; resolves once the ZIP stream has read all of it. */
  add(source: Buffer | Readable, data: { name: string; date: Date }): Promise<void> {
    // yazl keeps each entry's data function until the end (for the central directory), and with
    // it every variable the function's scope shares with a closure: the data is reached only
    // through this slot, emptied once handed over, so one entry's data at a time is in memory.
    const slot: EntrySlot = { source, resolve: null, reject: null };
    const added = new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        this.pending.delete(settle);
        if (error) reject(error);
        else resolve();
      };
      this.pending.add(settle);
      slot.resolve = () => settle();
      slot.reject = settle;
    });
    this.zip.addReadStreamLazy(data.name, { mtime: data.date, compressionLevel: 6 }, (give) => {
      const { source: given, resolve, reject } = slot;
      slot.source = slot.resolve = slot.reject = null;
      const stream = Buffer.isBuffer(given) ? new PassThrough().end(given) : given!;
      stream.once('end', () => resolve!());
      stream.once('error', (error: Error) => reject!(error));
      give(null, stream);
    });
    return added;
  }

  /** No more entries: the central directory follows, then the output ends. */
  finalize(): void {
    this.zip.end();
  }

  destroy(): void {
    this.output.destroy();
  }
}
