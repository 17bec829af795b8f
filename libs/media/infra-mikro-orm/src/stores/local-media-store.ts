import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rmdir, stat, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { clampRange, isStoreKey, MediaStore, type ByteRange, type ByteStream, type StoredBytes, type StoredObject } from '@rc/media-domain';
import { contentTypeOfKey } from './content-types.js';

export interface LocalMediaStoreOptions {
  /** The folder holding the files (default in the application: `DATA_DIR/media`). */
  readonly root: string;
}

/** A name no key can have (`#` is not a key character): the folder for files being written. */
const PARTIAL_DIR = '#partial';

/**
 * Files in a folder, one per key. A write goes to a temporary file in the same file system and is
 * renamed over the key's file once complete, so readers see the old file or the new one, never a
 * part; bytes stream through, never held whole. The content type is the one the key's extension
 * names (the folder keeps no other metadata).
 */
export class LocalMediaStore extends MediaStore {
  private readonly root: string;

  constructor(options: LocalMediaStoreOptions) {
    super();
    this.root = resolve(options.root);
  }

  async put(key: string, body: ByteStream, _contentType: string): Promise<StoredObject> {
    const target = this.pathOf(key);
    const partial = await this.partialPath();
    try {
      await pipeline(Readable.from(body, { objectMode: false }), createWriteStream(partial, { flags: 'wx' }));
      await mkdir(dirname(target), { recursive: true });
      await rename(partial, target);
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      throw error;
    }
    return this.describe(key, target);
  }

  async get(key: string, range?: ByteRange): Promise<StoredBytes | null> {
    const path = this.pathOf(key);
    const object = await this.describe(key, path).catch(notFound);
    if (!object) return null;
    const span = clampRange(range, object.size);
    const body: ByteStream = object.size === 0 ? Readable.from([]) : createReadStream(path, { start: span.start, end: span.end });
    return { object, range: span, body };
  }

  head(key: string): Promise<StoredObject | null> {
    return this.describe(key, this.pathOf(key)).catch(notFound);
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    try {
      await unlink(path);
    } catch (error) {
      notFound(error);
      return;
    }
    // Drop folders left empty, up to the root (best effort: a concurrent write may refill one).
    for (let dir = dirname(path); dir !== this.root && dir.startsWith(this.root + sep); dir = dirname(dir)) {
      if (!(await rmdir(dir).then(() => true, () => false))) break;
    }
  }

  async copy(fromKey: string, toKey: string): Promise<boolean> {
    const from = this.pathOf(fromKey);
    const to = this.pathOf(toKey);
    const partial = await this.partialPath();
    try {
      await copyFile(from, partial);
      await mkdir(dirname(to), { recursive: true });
      await rename(partial, to);
      return true;
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      notFound(error);
      return false;
    }
  }

  private pathOf(key: string): string {
    if (!isStoreKey(key)) throw new Error(`Invalid store key: ${key}`);
    const path = join(this.root, ...key.split('/'));
    const rel = relative(this.root, path);
    if (rel.startsWith('..') || rel.includes(`..${sep}`)) throw new Error(`Invalid store key: ${key}`);
    return path;
  }

  private async partialPath(): Promise<string> {
    const dir = join(this.root, PARTIAL_DIR);
    await mkdir(dir, { recursive: true });
    return join(dir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  private async describe(key: string, path: string): Promise<StoredObject> {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
    return { key, size: info.size, contentType: contentTypeOfKey(key), modifiedAt: new Date(info.mtimeMs) };
  }
}

function notFound(error: unknown): null {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return null;
  throw error;
}
