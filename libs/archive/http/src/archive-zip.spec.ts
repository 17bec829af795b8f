import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readZip } from './testing/index.js';
import { ArchiveZip } from './archive-zip.js';

// A full garbage collection on demand, so what is measured is what stays reachable.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The whole output of a writer, once finalized. */
function collect(zip: ArchiveZip): Promise<Buffer> {
  const chunks: Buffer[] = [];
  zip.output.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    zip.output.once('end', () => resolve(Buffer.concat(chunks)));
    zip.output.once('error', reject);
  });
}

describe('ArchiveZip', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-zip-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes entries from buffers and streams that a ZIP reader reads back whole, with their names and dates; its side file is removed', async () => {
    const zip = new ArchiveZip(join(dir, 'directory'));
    const bytes = collect(zip);
    const date = new Date(2026, 10, 26, 19, 45, 30);
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 'repair ');
    await zip.add(Buffer.from('<guide>Écran cassé</guide>'), { name: 'guides/1-écran.xml', date });
    await zip.add(Readable.from([Buffer.from('<category>'), Buffer.from('Phones'), Buffer.from('</category>')]), { name: 'categories/2-Phones.xml', date });
    await zip.add(Readable.from([big.subarray(0, 1000), big.subarray(1000)]), { name: 'media/big.bin', date });
    await zip.add(Buffer.alloc(0), { name: 'empty.txt', date });
    zip.finalize();
    const entries = await readZip(await bytes);
    expect(entries.map((e) => e.name)).toEqual(['guides/1-écran.xml', 'categories/2-Phones.xml', 'media/big.bin', 'empty.txt']);
    expect(entries[0]!.data.toString('utf8')).toBe('<guide>Écran cassé</guide>');
    expect(entries[1]!.data.toString('utf8')).toBe('<category>Phones</category>');
    expect(entries[2]!.data.equals(big)).toBe(true);
    expect(entries[3]!.data.length).toBe(0);
    expect(entries[0]!.date).toEqual(date);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes ZIP64 end records past 65,535 entries, and keeps none of them in memory (the central directory is in its side file)', async () => {
    const zip = new ArchiveZip(join(dir, 'directory'));
    const file = join(dir, 'archive.zip');
    const written = pipeline(zip.output, createWriteStream(file));
    const count = 70_000;
    await zip.add(Buffer.from('first'), { name: 'first.txt', date: new Date(0) });
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let i = 1; i < count; i++) await zip.add(Buffer.from(`<guide id="${i}"/>`), { name: `guides/${i}-a-guide-title-of-some-length.xml`, date: new Date(0) });
    collectGarbage();
    const grown = process.memoryUsage().heapUsed - before;
    zip.finalize();
    await written;
    const entries = await readZip(await readFile(file));
    expect(entries).toHaveLength(count);
    expect(entries[count - 1]).toMatchObject({ name: `guides/${count - 1}-a-guide-title-of-some-length.xml` });
    expect(entries[count - 1]!.data.toString()).toBe(`<guide id="${count - 1}"/>`);
    // yazl, which kept every entry until the end, held about 700 bytes an entry (47 MB here).
    expect(grown).toBeLessThan(4 * 1024 * 1024);
  }, 240_000);

  it('holds no entry data once the entry is written', async () => {
    const zip = new ArchiveZip(join(dir, 'directory'));
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
    expect(held).toBeLessThanOrEqual(1);
  });

  it('rejects an entry still being written when the output closes (a client gone), and every later one, instead of waiting for ever', async () => {
    const zip = new ArchiveZip(join(dir, 'directory'));
    // Random bytes do not compress: nobody reads the output, so the entry cannot be written whole.
    const first = zip.add(Buffer.from(Array.from({ length: 1024 * 1024 }, () => Math.floor(Math.random() * 256))), { name: 'big.xml', date: new Date(0) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    zip.destroy();
    await expect(first).rejects.toThrow('The archive output closed before every entry was written');
    await expect(zip.add(Buffer.from('late'), { name: 'late.xml', date: new Date(0) })).rejects.toThrow('The archive output closed before every entry was written');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await readdir(dir)).toEqual([]);
  });
});
