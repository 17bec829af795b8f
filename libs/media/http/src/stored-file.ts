import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { ByteRange, MediaStore } from '@rc/media-domain';
import { sendError } from '@rc/shared-http';

/**
 * A Range header of one range (`bytes=a-b`, `bytes=a-`, `bytes=-n`), clamped to the file; `null`
 * for no usable Range (the whole file is sent), `'unsatisfiable'` for one outside the file.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (!match[1] && !match[2])) return null;
  if (!match[1]) {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export interface StoredFileOptions {
  /** Names the file's bytes for good (a GUID, a version): the ETag, and the reason the file is immutable. */
  readonly tag: string;
  /** `attachment`: the file is downloaded under this name, never shown by the browser (documents). */
  readonly attachment?: string;
  readonly notFound: string;
}

/**
 * Sends one stored file as every media file route does: immutable for a year (its URL names bytes
 * that never change), a strong ETag and 304, byte ranges (206, 416) and HEAD, nosniff; the bytes
 * stream from the store.
 */
export async function sendStoredFile(req: Request, res: Response, store: MediaStore, key: string, options: StoredFileOptions): Promise<void> {
  const head = await store.head(key);
  if (!head) return sendError(res, 404, { message: options.notFound });
  const etag = `"${options.tag}-${head.size}"`;
  if (options.attachment) res.attachment(options.attachment);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', head.modifiedAt.toUTCString());
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Type', head.contentType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const matches = (req.headers['if-none-match'] ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (matches.includes(etag) || matches.includes('*')) return void res.status(304).end();
  const ifRange = req.headers['if-range'];
  let range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, head.size);
  if (range === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${head.size}`);
    return sendError(res, 416, { message: 'The range is outside the file' });
  }
  if (range && range.start === 0 && range.end === head.size - 1) range = null;
  const stored = await store.get(key, range ?? undefined);
  if (!stored) return sendError(res, 404, { message: options.notFound });
  const { start, end } = stored.range;
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${start}-${end}/${head.size}`);
  }
  res.setHeader('Content-Length', String(head.size === 0 ? 0 : end - start + 1));
  if (req.method === 'HEAD') {
    for await (const _ of stored.body) break; // release the file
    return void res.end();
  }
  await pipeline(Readable.from(stored.body), res).catch(() => res.destroy());
}
