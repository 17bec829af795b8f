/** Bytes as they flow: any async iterable of chunks (a Node stream is one). Never one whole buffer. */
export type ByteStream = AsyncIterable<Uint8Array>;

/** Bytes `start` to `end` inclusive, as an HTTP Range names them; `end` absent: to the end. */
export interface ByteRange {
  readonly start: number;
  readonly end?: number;
}

export interface StoredObject {
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
  readonly modifiedAt: Date;
}

export interface StoredBytes {
  readonly object: StoredObject;
  /** The range served, clamped to the object (`end` inclusive). */
  readonly range: { readonly start: number; readonly end: number };
  readonly body: ByteStream;
}

/** Keys are paths of lower-level names: letters, digits, `.`, `_`, `-`, separated by `/`; no empty or dot-only segment. */
export const STORE_KEY_PATTERN = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

export function isStoreKey(key: string): boolean {
  return key.length <= 512 && STORE_KEY_PATTERN.test(key);
}

/**
 * Where media files live: a folder, an S3 bucket. Every method streams; none holds a whole file in
 * memory. Implementations must pass the same contract suite.
 */
export abstract class MediaStore {
  /**
   * Stores the bytes under `key`, replacing any object there. Readers see the previous object or
   * the complete new one, never a part. When `body` throws, nothing is stored and the error is
   * rethrown.
   */
  abstract put(key: string, body: ByteStream, contentType: string): Promise<StoredObject>;
  /** The object's bytes (a range of them); `null` when there is no such object. A range starting past the end is refused with a RangeError. */
  abstract get(key: string, range?: ByteRange): Promise<StoredBytes | null>;
  abstract head(key: string): Promise<StoredObject | null>;
  /** Removes the object; a missing one is no error. */
  abstract delete(key: string): Promise<void>;
  /** Copies an object inside the store (`false`: no such source). */
  abstract copy(fromKey: string, toKey: string): Promise<boolean>;
}

/** The contract's range rule: `end` clamped to the last byte; a start past the end (or a range of an empty object) is a RangeError. */
export function clampRange(range: ByteRange | undefined, size: number): { start: number; end: number } {
  if (!range) return { start: 0, end: Math.max(0, size - 1) };
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (!Number.isInteger(range.start) || range.start < 0 || range.start >= size || end < range.start) {
    throw new RangeError(`Range ${range.start}-${range.end ?? ''} is outside 0-${size - 1}`);
  }
  return { start: range.start, end };
}
