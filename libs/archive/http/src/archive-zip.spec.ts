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
    // Each entry's data, watched through a weak reference: what is still reachable after a full
    // collection is what the writer holds (whatever else the process allocates meanwhile).
    const written: WeakRef<Buffer>[] = [];
    for (let i = 0; i < 200; i++) {
      const data = Buffer.alloc(200 * 1024, i % 251);
      written.push(new WeakRef(data));
      await zip.add(data, { name: `doc-${i}.xml`, date: new Date(0) });
    }
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    const held = written.filter((ref) => ref.deref() !== undefined).length;
    zip.finalize();
    await new Promise((resolve) => zip.output.once('end', resolve));
    expect(bytes).toBeGreaterThan(0);
    // At most the entry being compressed; before the fix, all 200 (40 MB).
    expect(held).toBeLessThanOrEqual(1);
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
