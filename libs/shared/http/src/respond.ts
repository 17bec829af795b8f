import type { IncomingMessage, ServerResponse } from 'node:http';
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

export interface ErrorBody {
  error: true;
  message: string;
  errors?: { field: string; message: string; index?: number }[];
  requiredPrivileges?: string[];
}

export function sendError(res: Response, status: number, body: Omit<ErrorBody, 'error'>): void {
  sendJson(res, status, { error: true, ...body });
}
