import { concatBytes } from '../model/bytes.js';
import { clampRange, isStoreKey, MediaStore, type ByteRange, type ByteStream, type StoredBytes, type StoredObject } from '../ports/media-store.js';

interface Entry {
  readonly data: Uint8Array;
  readonly object: StoredObject;
}

/** Objects in a map: the store contract's reference behaviour, for unit tests. */
export class InMemoryMediaStore extends MediaStore {
  readonly objects = new Map<string, Entry>();

  async put(key: string, body: ByteStream, contentType: string): Promise<StoredObject> {
    checkKey(key);
    const parts: Uint8Array[] = [];
    for await (const chunk of body) parts.push(chunk.slice());
    const data = concatBytes(parts);
    const object = { key, size: data.length, contentType, modifiedAt: new Date() };
    this.objects.set(key, { data, object });
    return object;
  }

  async get(key: string, range?: ByteRange): Promise<StoredBytes | null> {
    checkKey(key);
    const entry = this.objects.get(key);
    if (!entry) return null;
    const span = clampRange(range, entry.data.length);
    const slice = entry.data.slice(span.start, span.end + 1);
    return { object: entry.object, range: span, body: (async function* () { if (slice.length) yield slice; })() };
  }

  async head(key: string): Promise<StoredObject | null> {
    checkKey(key);
    return this.objects.get(key)?.object ?? null;
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    this.objects.delete(key);
  }

  async copy(fromKey: string, toKey: string): Promise<boolean> {
    checkKey(fromKey);
    checkKey(toKey);
    const entry = this.objects.get(fromKey);
    if (!entry) return false;
    this.objects.set(toKey, { data: entry.data, object: { ...entry.object, key: toKey, modifiedAt: new Date() } });
    return true;
  }

  keys(prefix = ''): string[] {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}

export function checkKey(key: string): void {
  if (!isStoreKey(key)) throw new Error(`Invalid store key: ${key}`);
}
