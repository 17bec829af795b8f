import { createHash } from 'node:crypto';
import { bytesOf, readAll, type ByteStream, type MediaStore } from '@rc/media-domain';

/** What every MediaStore must do; run by each store's spec against a real backend. */
export function mediaStoreContract(name: string, open: () => Promise<{ store: MediaStore; close(): Promise<void> }>): void {
  describe(`${name} (MediaStore contract)`, () => {
    let store: MediaStore;
    let close: () => Promise<void>;
    const text = (s: string) => new Uint8Array(Buffer.from(s));
    const read = async (key: string, range?: { start: number; end?: number }) => {
      const got = await store.get(key, range);
      return got ? Buffer.from(await readAll(got.body)).toString() : null;
    };

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('stores bytes and answers them, their size and type', async () => {
      const put = await store.put('a/b/hello.txt', bytesOf(text('hello, store')), 'text/plain');
      expect(put).toMatchObject({ key: 'a/b/hello.txt', size: 12, contentType: 'text/plain' });
      expect(await store.head('a/b/hello.txt')).toMatchObject({ key: 'a/b/hello.txt', size: 12, contentType: 'text/plain', modifiedAt: expect.any(Date) });
      const got = await store.get('a/b/hello.txt');
      expect(got!.object.size).toBe(12);
      expect(got!.range).toEqual({ start: 0, end: 11 });
      expect(Buffer.from(await readAll(got!.body)).toString()).toBe('hello, store');
    });

    it('streams a file of many megabytes in small chunks, byte for byte', async () => {
      const size = 12 * 1024 * 1024 + 12345;
      const hash = createHash('sha256');
      async function* body(): ByteStream {
        let sent = 0;
        for (let i = 0; sent < size; i++) {
          const chunk = new Uint8Array(Math.min(64 * 1024, size - sent)).fill(i % 251);
          hash.update(chunk);
          sent += chunk.length;
          yield chunk;
        }
      }
      expect((await store.put('big/file.bin', body(), 'application/octet-stream')).size).toBe(size);
      const got = await store.get('big/file.bin');
      const back = createHash('sha256');
      let length = 0;
      for await (const chunk of got!.body) {
        back.update(chunk);
        length += chunk.length;
      }
      expect(length).toBe(size);
      expect(back.digest('hex')).toBe(hash.digest('hex'));
      await store.delete('big/file.bin');
    });

    it('replaces an object', async () => {
      await store.put('r/one.txt', bytesOf(text('first')), 'text/plain');
      await store.put('r/one.txt', bytesOf(text('second!')), 'text/plain');
      expect(await read('r/one.txt')).toBe('second!');
      expect((await store.head('r/one.txt'))!.size).toBe(7);
    });

    it('stores nothing when the body fails, rethrowing its error, and leaves an older object as it was', async () => {
      class BodyFailed extends Error {}
      async function* failing(): ByteStream {
        yield new Uint8Array(6 * 1024 * 1024).fill(1);
        yield new Uint8Array(1024).fill(2);
        throw new BodyFailed('client went away');
      }
      await expect(store.put('f/new.bin', failing(), 'application/octet-stream')).rejects.toBeInstanceOf(BodyFailed);
      expect(await store.head('f/new.bin')).toBeNull();
      await store.put('f/old.txt', bytesOf(text('old')), 'text/plain');
      await expect(store.put('f/old.txt', failing(), 'text/plain')).rejects.toBeInstanceOf(BodyFailed);
      expect(await read('f/old.txt')).toBe('old');
    });

    it('shows readers the old object or the new one, never a part, while a write is under way', async () => {
      await store.put('w/doc.txt', bytesOf(text('old content')), 'text/plain');
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      async function* slow(): ByteStream {
        yield text('new ');
        await gate;
        yield text('content');
      }
      const writing = store.put('w/doc.txt', slow(), 'text/plain');
      await new Promise((r) => setTimeout(r, 100));
      expect(await read('w/doc.txt')).toBe('old content');
      release();
      await writing;
      expect(await read('w/doc.txt')).toBe('new content');
    });

    it('answers byte ranges, clamping the end and refusing a start past it', async () => {
      await store.put('g/digits.txt', bytesOf(text('0123456789')), 'text/plain');
      expect(await read('g/digits.txt', { start: 2, end: 5 })).toBe('2345');
      expect(await read('g/digits.txt', { start: 7 })).toBe('789');
      const clamped = await store.get('g/digits.txt', { start: 8, end: 100 });
      expect(clamped!.range).toEqual({ start: 8, end: 9 });
      expect(Buffer.from(await readAll(clamped!.body)).toString()).toBe('89');
      await expect(store.get('g/digits.txt', { start: 10 })).rejects.toBeInstanceOf(RangeError);
    });

    it('keeps an empty object', async () => {
      await store.put('e/empty.txt', bytesOf(new Uint8Array(0)), 'text/plain');
      expect((await store.head('e/empty.txt'))!.size).toBe(0);
      expect(await read('e/empty.txt')).toBe('');
    });

    it('answers null for a missing object; deleting one is no error', async () => {
      expect(await store.get('nope/x.txt')).toBeNull();
      expect(await store.head('nope/x.txt')).toBeNull();
      await expect(store.delete('nope/x.txt')).resolves.toBeUndefined();
    });

    it('deletes', async () => {
      await store.put('d/gone.txt', bytesOf(text('x')), 'text/plain');
      await store.delete('d/gone.txt');
      expect(await store.head('d/gone.txt')).toBeNull();
    });

    it('copies inside the store; a missing source copies nothing', async () => {
      await store.put('c/src.txt', bytesOf(text('copy me')), 'text/plain');
      expect(await store.copy('c/src.txt', 'c/dst/copy.txt')).toBe(true);
      expect(await read('c/dst/copy.txt')).toBe('copy me');
      expect(await store.copy('c/none.txt', 'c/dst/none.txt')).toBe(false);
      expect(await store.head('c/dst/none.txt')).toBeNull();
    });

    it('refuses keys that could leave the store', async () => {
      for (const key of ['../escape.txt', 'a/../../b.txt', '/abs.txt', 'a//b.txt', '']) {
        await expect(store.put(key, bytesOf(text('x')), 'text/plain')).rejects.toThrow(/key/i);
        await expect(store.get(key)).rejects.toThrow(/key/i);
      }
    });
  });
}
