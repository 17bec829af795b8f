import type { ByteStream } from '../ports/media-store.js';

/** Passes the bytes on, throwing `tooLarge()` as soon as more than `max` have come. */
export async function* limitBytes(source: ByteStream, max: number, tooLarge: () => Error): ByteStream {
  let seen = 0;
  for await (const chunk of source) {
    seen += chunk.length;
    if (seen > max) throw tooLarge();
    yield chunk;
  }
}

/** Passes the bytes on and keeps a copy of the first `size` of them (the header a probe reads). */
export function keepHead(source: ByteStream, size: number): { readonly stream: ByteStream; head(): Uint8Array } {
  const parts: Uint8Array[] = [];
  let kept = 0;
  async function* stream(): ByteStream {
    for await (const chunk of source) {
      if (kept < size) {
        const part = chunk.subarray(0, size - kept);
        parts.push(part.slice());
        kept += part.length;
      }
      yield chunk;
    }
  }
  return { stream: stream(), head: () => concatBytes(parts) };
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Reads a whole stream (tests and small files only). */
export async function readAll(source: ByteStream): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of source) parts.push(chunk);
  return concatBytes(parts);
}

/** A stream of one buffer, in chunks. */
export async function* bytesOf(data: Uint8Array, chunkSize = 64 * 1024): ByteStream {
  for (let at = 0; at < data.length; at += chunkSize) yield data.subarray(at, at + chunkSize);
}
