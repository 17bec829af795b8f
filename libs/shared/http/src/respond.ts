import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import accepts from 'accepts';
import vary from 'vary';
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
  if (body instanceof KeptAnswer) {
    if (status === 200 && res.req) return sendKeptJson(res.req, res, body.kept, body.hash);
    return sendJsonBytes(res.req, res, status, jsonOf(body.kept), body.hash);
  }
  const pretty = wantsPretty(res.req);
  const text = body instanceof SerializedJson ? body.json : JSON.stringify(body, null, pretty ? 2 : undefined);
  sendJsonBytes(res.req, res, status, text, body instanceof SerializedJson ? body.hash : null, body instanceof SerializedJson ? body.encoding : null);
}

/**
 * Sends serialized JSON as every answer goes out (also ahead of Express, see hot-path.ts): a GET's
 * validators, and a 304 when the request's copy is current (conditional.ts); else the status,
 * `Content-Type: application/json` exactly, `Content-Encoding` for gzipped bytes, the length and
 * the bytes (none for HEAD). `hash`: of the JSON before any gzip (the ETag of a gzip is that of
 * its JSON, marked `-gzip`).
 */
export function sendJsonBytes(req: IncomingMessage | undefined, res: ServerResponse, status: number, bytes: string | Buffer, hash: string | null, encoding: 'gzip' | null = null): void {
  if (req && conditionalGet(req, res, status, bytes, hash, encoding)) return sendNotModified(res);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', Buffer.byteLength(bytes));
  res.end(req?.method === 'HEAD' ? undefined : bytes);
}

/** Whether the request takes a gzipped answer (`Accept-Encoding`, its q-values weighed against identity's). */
export function acceptsGzip(req: IncomingMessage): boolean {
  return !!req.headers['accept-encoding'] && accepts(req).encoding('gzip', 'identity') === 'gzip';
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
  /** The gzip kept of a body answered as it was built (its plain `json` at hand): see {@link gzipOf}. */
  readonly gzip?: Buffer;
}

/** The gzip of a kept body, when it is kept gzipped (its `json`, or its `gzip` beside the plain JSON just built); else null. */
export function gzipOf(kept: KeptJson): Buffer | null {
  return kept.gzipped ? (kept.json as Buffer) : (kept.gzip ?? null);
}

/** The kept body's JSON bytes, inflated when it is kept gzipped. */
export function jsonOf(kept: KeptJson): string | Buffer {
  return kept.gzipped ? gunzipSync(kept.json) : kept.json;
}

/**
 * Sends a kept body whose hash is known (a 200 to a GET or HEAD), as {@link sendJsonBytes} does.
 * A body kept gzipped has two representations, so the answer varies on `Accept-Encoding`: its gzip
 * as kept to a client that takes gzip (with its own ETag, `"…-gzip"`), else its JSON, inflated
 * only when sent (a 304 is decided on the hash alone).
 */
export function sendKeptJson(req: IncomingMessage, res: ServerResponse, kept: KeptJson, hash: string): void {
  const gzip = gzipOf(kept);
  if (gzip !== null) {
    vary(res, 'Accept-Encoding');
    if (acceptsGzip(req)) return sendJsonBytes(req, res, 200, gzip, hash, 'gzip');
    if (kept.gzipped && conditionalGet(req, res, 200, '', hash)) return sendNotModified(res);
  }
  // A gzipped body's validators are set by now (conditionalGet leaves an answer with an ETag
  // alone); a plain body's are set as sendJsonBytes sends it.
  sendJsonBytes(req, res, 200, jsonOf(kept), hash);
}

/** A route's answer from a kept body: sent as {@link sendKeptJson} sends it (see `answerOf`). */
export class KeptAnswer {
  constructor(
    readonly kept: KeptJson,
    /** The hash of its JSON. */
    readonly hash: string,
  ) {}
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
