import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArchiveStore } from './archive-store.js';

describe('ArchiveStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'store-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const build = async (store: ArchiveStore, content: string, at: Date) => {
    const pending = await store.begin();
    await writeFile(pending.path, content);
    return pending.commit({ sha256: `hash-of-${content}`, contentVersion: `v-${content}`, guides: 1, categories: 2 }, at);
  };

  it('lists nothing for a folder that does not exist yet', async () => {
    const store = new ArchiveStore(join(dir, 'missing'));
    expect(await store.list()).toEqual([]);
    expect(await store.latest()).toBeNull();
  });

  it('renames a complete build into place with its sidecar, newest first, keeping the newest three', async () => {
    const store = new ArchiveStore(dir);
    for (let i = 1; i <= 4; i++) await build(store, `archive ${i}`, new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
    const list = await store.list();
    expect(list.map((a) => a.name)).toEqual(['omanual-20260101T000004000Z.zip', 'omanual-20260101T000003000Z.zip', 'omanual-20260101T000002000Z.zip']);
    expect(list[0]).toMatchObject({ size: 9, etag: '"sha256-hash-of-archive 4"', contentVersion: 'v-archive 4', guides: 1, categories: 2, builtAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 4)) });
    expect((await readdir(dir)).sort()).toEqual(list.flatMap((a) => [a.name, `${a.name}.json`]).sort());
  });

  it('never lists or finds a partial file, and finds archives by exact name only', async () => {
    const store = new ArchiveStore(dir);
    const done = await build(store, 'whole', new Date(Date.UTC(2026, 0, 1)));
    const pending = await store.begin();
    await writeFile(pending.path, 'half an archi');
    expect((await store.list()).map((a) => a.name)).toEqual([done.name]);
    expect(await store.find(done.name)).toMatchObject({ name: done.name });
    for (const name of [pending.path.split('/').pop()!, `../${done.name}`, 'omanual-x.zip', `${done.name}.json`]) expect(await store.find(name)).toBeNull();
  });

  it('two builds finishing in the same millisecond get distinct names', async () => {
    const store = new ArchiveStore(dir);
    const at = new Date(Date.UTC(2026, 0, 1));
    const a = await build(store, 'one', at);
    const b = await build(store, 'two', at);
    expect(a.name).not.toBe(b.name);
    expect((await store.latest())!.name).toBe(b.name);
  });

  it('removes partial files left by a dead build once they are old, not those of a live one', async () => {
    const store = new ArchiveStore(dir);
    await writeFile(join(dir, '.omanual-1-aaaa.partial'), 'dead');
    await writeFile(join(dir, '.omanual-1-aaaa.partial.manifest'), 'dead');
    await writeFile(join(dir, '.omanual-2-bbbb.partial'), 'live');
    const old = new Date(Date.now() - 7 * 3600 * 1000);
    await utimes(join(dir, '.omanual-1-aaaa.partial'), old, old);
    await utimes(join(dir, '.omanual-1-aaaa.partial.manifest'), old, old);
    const pending = await store.begin();
    const names = await readdir(dir);
    expect(names).toContain('.omanual-2-bbbb.partial');
    expect(names).not.toContain('.omanual-1-aaaa.partial');
    expect(names).not.toContain('.omanual-1-aaaa.partial.manifest');
    await pending.discard();
  });

  it('serves an archive without a sidecar with a weaker validator', async () => {
    const store = new ArchiveStore(dir);
    await writeFile(join(dir, 'omanual-20260101T000000000Z.zip'), 'copied in');
    const [archive] = await store.list();
    expect(archive).toMatchObject({ contentVersion: null, guides: null, etag: expect.stringMatching(/^"[0-9a-f]+-[0-9a-f]+"$/) });
  });
});
