import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ArchiveZip } from './archive-zip.js';

// A full garbage collection on demand, so what is measured is what stays reachable.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe('ArchiveZip', () => {
  it('holds no entry data once the entry is written (yazl keeps every entry until the end)', async () => {
    const zip = new ArchiveZip();
    let bytes = 0;
    zip.output.on('data', (chunk: Buffer) => (bytes += chunk.length));
    collectGarbage();
    const before = process.memoryUsage().arrayBuffers;
    const entries = 200;
    const size = 200 * 1024; // 40 MB in all
    for (let i = 0; i < entries; i++) {
      const data = Buffer.alloc(size, i % 251);
      await zip.add(data, { name: `doc-${i}.xml`, date: new Date(0) });
    }
    collectGarbage();
    const retained = process.memoryUsage().arrayBuffers - before;
    zip.finalize();
    await new Promise((resolve) => zip.output.once('end', resolve));
    expect(bytes).toBeGreaterThan(0);
    // Each entry's 200 KB kept would be 40 MB; what remains is the compressor's working memory.
    expect(retained).toBeLessThan(8 * 1024 * 1024);
  });

  it('rejects an entry still being written when the output closes (a client gone), instead of waiting for ever', async () => {
    const zip = new ArchiveZip();
    const first = zip.add(Buffer.alloc(1024 * 1024, 7), { name: 'big.xml', date: new Date(0) });
    // Nobody reads the output: the entry cannot be written whole. The reader goes away.
    zip.destroy();
    await expect(first).rejects.toThrow('The archive output closed before every entry was written');
    // Nothing is left waiting.
    expect((zip as unknown as { pending: Set<unknown> }).pending.size).toBe(0);
  });
});
