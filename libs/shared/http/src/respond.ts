import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { conditionalGet, sendNotModified } from './conditional.js';

/** `?pretty` (present with any value or none) indents the body. */
export function wantsPretty(req: Request | undefined): boolean {
  const query = req?.query as Record<string, unknown> | undefined;
  return !!query && Object.prototype.hasOwnProperty.call(query, 'pretty');
}

/** A handler's answer meaning "304 Not Modified": the client's copy is current. */
export const NOT_MODIFIED: object = Object.freeze({});

/** A body already serialized as compact JSON (a cached one): sent as those bytes, gzipped when `encoding` says so. */
export class SerializedJson {
  constructor(
    readonly json: Buffer | string,
    readonly encoding: 'gzip' | null = null,
    /** The hash of exactly these bytes when already known (`hashOf`): the ETag is not computed again. */
    readonly hash: string | null = null,
  ) {}
}

/**
 * Writes a JSON body with `Content-Type: application/json` exactly (Express would add a charset
 * parameter). Every success and error body of the API goes out through here, and every 200 to a
 * GET gets its ETag and caching headers here (or a 304: see `conditionalGet`).
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  if (body === NOT_MODIFIED) {
    res.status(304).end();
    return;
  }
  const pretty = wantsPretty(res.req);
  if (body instanceof SerializedJson && body.encoding) res.setHeader('Content-Encoding', body.encoding);
  const text = body instanceof SerializedJson ? body.json : JSON.stringify(body, null, pretty ? 2 : undefined);
  sendJsonBytes(res.req, res, status, text, body instanceof SerializedJson ? body.hash : null);
}

/**
 * Sends serialized JSON as every answer goes out (also ahead of Express, see hot-path.ts): a GET's
 * validators, and a 304 when the request's copy is current (conditional.ts); else the status,
 * `Content-Type: application/json` exactly, the length and the bytes (none for HEAD).
 */
export function sendJsonBytes(req: IncomingMessage | undefined, res: ServerResponse, status: number, bytes: string | Buffer, hash: string | null): void {
  if (req && conditionalGet(req, res, status, bytes, hash)) return sendNotModified(res);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(bytes));
  res.end(req?.method === 'HEAD' ? undefined : bytes);
}

/**
 * Gzip at level 1 (a third of the default level's time for a body a few percent larger), in a
 * Buffer of its own size: zlib answers a slice of a 16 KiB chunk, so a body of 7 KB kept as it
 * came would hold 16 KiB (a guide body cache counted 64 MB while it held 150 MB).
 */
export function gzipToKeep(json: string | Buffer): Buffer {
  const gzip = gzipSync(json, { level: 1 });
  return gzip.byteLength === gzip.buffer.byteLength ? gzip : Buffer.from(gzip);
}

/** A body kept serialized: its compact JSON, or that JSON gzipped (see {@link gzipToKeep}). */
export interface KeptJson {
  readonly json: string | Buffer;
  readonly gzipped: boolean;
}

/** The kept body's JSON bytes, inflated when it is kept gzipped. */
export function jsonOf(kept: KeptJson): string | Buffer {
  return kept.gzipped ? gunzipSync(kept.json) : kept.json;
}

/**
 * Sends a kept body whose hash is known, as {@link sendJsonBytes} does: a 304 is decided on the
 * hash alone, so a body kept gzipped is inflated only when its bytes are sent.
 */
export function sendKeptJson(req: IncomingMessage, res: ServerResponse, kept: KeptJson, hash: string): void {
  if (kept.gzipped && conditionalGet(req, res, 200, '', hash)) return sendNotModified(res);
  // A gzipped body's validators are set by now (conditionalGet leaves an answer with an ETag
  // alone); a plain body's are set as sendJsonBytes sends it.
  sendJsonBytes(req, res, 200, jsonOf(kept), hash);
}

export interface ErrorBody {
  error: true;
  message: string;
  errors?: { field: string; message: string; index?: number }[];
  requiredPrivileges?: string[];
}

export function sendError(res: Response, status: number, body: Omit<ErrorBody, 'error'>): void {
  sendJson(res, status, { error: true, ...body });
}
