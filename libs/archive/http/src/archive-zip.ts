import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';

/**
 * The archive's ZIP writer, on yazl's public API: entries are compressed and written one after
 * another through `output` (with back-pressure, ZIP64 when the archive needs it), and each entry's
 * data is asked for only when its turn comes, so one entry at a time is in memory. The central
 * directory, written at `finalize()`, is one record per entry.
 */
export class ArchiveZip {
  private readonly zip = new yazl.ZipFile();

  /** The ZIP file's bytes (yazl's output stream, a stream.PassThrough: typed as a plain readable stream). */
  get output(): Readable {
    return this.zip.outputStream as Readable;
  }

  /** Adds one entry; resolves once the ZIP stream has read all of it. */
  add(source: Buffer | Readable, data: { name: string; date: Date }): Promise<void> {
    // yazl keeps each entry's data function until the end (for the central directory): it must
    // not hold on to the data, which is dropped once handed over.
    let pending: { source: Buffer | Readable; resolve: () => void; reject: (error: Error) => void } | null = null;
    const added = new Promise<void>((resolve, reject) => (pending = { source, resolve, reject }));
    this.zip.addReadStreamLazy(data.name, { mtime: data.date, compressionLevel: 6 }, (give) => {
      const { source: data, resolve, reject } = pending!;
      pending = null;
      const stream = Buffer.isBuffer(data) ? new PassThrough().end(data) : data;
      stream.once('end', () => resolve());
      stream.once('error', reject);
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
