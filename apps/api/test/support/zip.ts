import yauzl from 'yauzl';

/** Every file of a ZIP, in the order of its entries (yauzl reads the central directory, ZIP64 included). */
export function readZip(zip: Buffer): Promise<[string, Buffer][]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const files: [string, Buffer][] = [];
      file.on('error', reject);
      file.on('end', () => resolve(files));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            files.push([entry.fileName, Buffer.concat(chunks)]);
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}
