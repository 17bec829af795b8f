import yauzl from 'yauzl';

export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
  readonly date: Date;
}

/**
 * Every entry of a ZIP in the order of its entries, as an independent reader sees it: yauzl reads
 * the central directory (ZIP64 included) and checks sizes and CRCs. For tests of archives.
 */
export function readZip(zip: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const entries: ZipEntry[] = [];
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ name: entry.fileName, data: Buffer.concat(chunks), date: entry.getLastModDate() });
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}
