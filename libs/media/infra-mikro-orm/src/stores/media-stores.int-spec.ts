import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { InMemoryMediaStore } from '@rc/media-domain/testing';
import { bytesOf } from '@rc/media-domain';
import { LocalMediaStore } from './local-media-store.js';
import { S3MediaStore } from './s3-media-store.js';
import { mediaStoreContract } from './media-store.contract.js';

mediaStoreContract('InMemoryMediaStore (the fake unit tests use)', async () => ({
  store: new InMemoryMediaStore(),
  close: async () => undefined,
}));

let localRoot = '';
mediaStoreContract('LocalMediaStore (a temporary folder)', async () => {
  localRoot = await mkdtemp(join(tmpdir(), 'rc-media-local-'));
  return {
    store: new LocalMediaStore({ root: localRoot }),
    close: () => rm(localRoot, { recursive: true, force: true }),
  };
});

describe('LocalMediaStore specifics', () => {
  it('leaves no partial file behind a failed write, and no empty folder behind a delete', async () => {
    const root = await mkdtemp(join(tmpdir(), 'rc-media-local-'));
    try {
      const store = new LocalMediaStore({ root });
      async function* failing() {
        yield new Uint8Array(10);
        throw new Error('gone');
      }
      await expect(store.put('x/y/z.bin', failing(), 'application/octet-stream')).rejects.toThrow('gone');
      expect(await readdir(join(root, '#partial'))).toEqual([]);
      await store.put('x/y/z.bin', bytesOf(new Uint8Array(3)), 'application/octet-stream');
      await store.delete('x/y/z.bin');
      expect((await readdir(root)).sort()).toEqual(['#partial']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

mediaStoreContract('S3MediaStore (an S3-protocol server on loopback)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rc-media-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'media' }] });
  const { port } = await server.run();
  const options = {
    bucket: 'media',
    prefix: 'test',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    partSize: 5 * 1024 * 1024,
  };
  const store = new S3MediaStore(options);
  return {
    store,
    close: async () => {
      store.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
