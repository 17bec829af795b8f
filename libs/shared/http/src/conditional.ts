import { createHash } from 'node:crypto';
import { ApiHeader } from '@nestjs/swagger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import vary from 'vary';
import { ValidationFailedError, parseId } from '@rc/shared-kernel';
import { requiredRevision } from './params.js';

// Conditional requests (RFC 9110 §8.8, §13): validators on every GET, 304s, and `If-Match` on the
// writes of versioned resources. See docs/http-contract.md ("Conditional requests").

/** The revision a GET answered (a guide's, a page's): it names its ETag and gives `Last-Modified`. */
interface Represented {
  readonly revisionid: number;
  /** UNIX seconds; `null`: unknown (no `Last-Modified`). */
  readonly modified: number | null;
}

const revisions = new WeakMap<object, Represented>();

/**
 * Marks the response as a representation of this revision of a versioned resource: its ETag then
 * names the revision (a write may send it back as `If-Match`) and it carries `Last-Modified`.
 */
export function representsRevision(res: object, revisionid: number, modifiedSeconds: number | null | undefined): void {
  revisions.set(res, { revisionid, modified: typeof modifiedSeconds === 'number' && Number.isFinite(modifiedSeconds) ? modifiedSeconds : null });
}

/** A strong hash of exactly these bytes: 27 base64url characters of their SHA-256. */
export function hashOf(bytes: string | Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 27);
}

/**
 * The strong ETag of a representation: the hash of its bytes, after `r<revisionid>-` for a
 * revision of a versioned resource (so the revision can be read back from an `If-Match`).
 */
export function etagOf(hash: string, revisionid?: number | null): string {
  return revisionid ? `"r${revisionid}-${hash}"` : `"${hash}"`;
}

/**
 * The ETag of a representation's gzip: its JSON's ETag marked `-gzip` (a strong ETag names one
 * encoding of the bytes, RFC 9110 §8.8.3; the revision it names stays readable in an `If-Match`).
 */
export function gzipEtagOf(etag: string): string {
  return etag.replace(/"$/, '-gzip"');
}

/** Whether an `If-None-Match` header names this ETag (weak comparison, RFC 9110 §8.8.3.2) or is `*`. */
export function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  return String(header)
    .split(',')
    .some((tag) => {
      const t = tag.trim();
      return t === '*' || t === opaque || t === `W/${opaque}`;
    });
}

/** The newest revision the ETags of an `If-None-Match` name (0: none): what the client has already seen. */
export function newestRevisionNamed(header: string | string[] | undefined): number {
  let newest = 0;
  for (const match of String(header ?? '').matchAll(/"r([1-9][0-9]{0,15})-/g)) newest = Math.max(newest, Number(match[1]));
  return newest;
}

/** `If-Modified-Since` says the client's copy is as new as `modified` (UNIX seconds); an invalid date says nothing. */
function notModifiedSince(header: string | undefined, modified: number | null): boolean {
  if (!header || modified === null) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && modified * 1000 <= since;
}

/**
 * For a 200 answer to a GET or HEAD about to be sent with these bytes: sets its validators (a strong
 * `ETag`, and `Last-Modified` for a revision of a versioned resource) and its caching headers, then
 * says whether the request's conditions make it a 304 (`If-None-Match`, else `If-Modified-Since`).
 * Answers that already carry an ETag (the guide bodies answered from the cache) are left alone;
 * `hash`: the hash of `bytes` when already known (a kept body's); with `encoding` `gzip`, `bytes`
 * are the gzip of the JSON `hash` was taken of, and the ETag is that of the gzip ({@link gzipEtagOf}).
 *
 * Caching: every answer varies on `Authorization`; one to a request with credentials is
 * `Cache-Control: private, no-cache` (what it shows may depend on the viewer), others `public,
 * no-cache` (a shared cache may keep them, but must revalidate each use: it never serves a body
 * older than the API's current one). A `Cache-Control` the route set stays.
 */
export function conditionalGet(req: IncomingMessage, res: ServerResponse, status: number, bytes: string | Buffer, hash?: string | null, encoding: 'gzip' | null = null): boolean {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || status !== 200 || res.hasHeader('ETag')) return false;
  const represented = revisions.get(res);
  const plain = etagOf(hash ?? hashOf(bytes), represented?.revisionid);
  const etag = encoding === 'gzip' ? gzipEtagOf(plain) : plain;
  res.setHeader('ETag', etag);
  if (represented?.modified != null) res.setHeader('Last-Modified', new Date(represented.modified * 1000).toUTCString());
  vary(res, 'Authorization');
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', req.headers.authorization ? 'private, no-cache' : 'public, no-cache');
  // RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it.
  if (req.headers['if-none-match'] !== undefined) return matchesEtag(req.headers['if-none-match'], etag);
  return notModifiedSince(req.headers['if-modified-since'], represented?.modified ?? null);
}

/** Answers 304 Not Modified (headers already set), with no body. */
export function sendNotModified(res: ServerResponse): void {
  res.removeHeader('Content-Type');
  res.removeHeader('Content-Length');
  res.removeHeader('Content-Encoding');
  res.statusCode = 304;
  res.end();
}

const NO_REVISION = 0;

/**
 * The revision a write of a versioned resource expects: `?revisionid=N`, or the revision named by
 * an `If-Match` ETag (one this API sent for a read of that resource: `"r<N>-…"`, any representation).
 * - `If-Match` naming a revision: that revision (a stale one is the usual 409 with the current body).
 * - `If-Match` with only tags naming no revision (not one of this resource's current ETags): the
 *   precondition cannot hold, answered as a stale revision (409 with the current body).
 * - Both given: they must agree (a tag naming `revisionid`), else 422.
 * - `If-Match: *` says only that the resource exists: `revisionid` is still required.
 * - Neither: 422, as a missing `revisionid` always was.
 */
export function expectedRevision(req: IncomingMessage, query: Record<string, unknown>, name = 'revisionid'): number {
  const header = req.headers['if-match'];
  const tags = header === undefined ? [] : String(header).split(',').map((t) => t.trim()).filter((t) => t !== '' && t !== '*');
  if (tags.length === 0) return requiredRevision(query, name);
  // Strong comparison (RFC 9110 §13.1.1): a weak tag never matches.
  const named = tags.map((tag) => /^"r([1-9][0-9]{0,15})-[A-Za-z0-9_-]+"$/.exec(tag)?.[1]).map((n) => (n === undefined ? null : parseId(n)));
  const known = [...new Set(named.filter((n): n is number => n !== null))];
  if (query[name] !== undefined) {
    const given = requiredRevision(query, name);
    if (!known.includes(given)) throw disagreement(name);
    return given;
  }
  if (known.length > 1) throw new ValidationFailedError('If-Match names more than one revision', [{ field: 'If-Match', message: 'If-Match must name one revision' }]);
  return known[0] ?? NO_REVISION;
}

function disagreement(name: string): ValidationFailedError {
  return new ValidationFailedError(`If-Match and '${name}' name different revisions`, [{ field: 'If-Match', message: `If-Match must name the revision ${name} names` }]);
}

/** Documents `If-Match` on a write of a versioned resource (see `expectedRevision`). */
export function IfMatchRevision(): MethodDecorator {
  return ApiHeader({
    name: 'If-Match',
    required: false,
    description:
      'Instead of `revisionid`: the `ETag` of a read of this resource (`"r<revisionid>-…"`, any representation), naming the revision the write expects. ' +
      'A stale revision, or a tag naming none, is a 409 whose body is the current version; with `revisionid` too, both must name the same revision (else 422). `*` alone does not replace `revisionid`.',
    schema: { type: 'string', example: '"r1234-3q2+7w_AZnXjvQk2dJcF0gHfT5s"' },
  });
}

type OpenApiDocument = { paths: Record<string, Record<string, { parameters?: unknown[]; responses?: Record<string, { headers?: Record<string, unknown> } & Record<string, unknown>> }>>; components?: Record<string, Record<string, unknown> | undefined> };

/**
 * Adds the conditional-request headers every GET operation answering JSON has: `If-None-Match`
 * and `If-Modified-Since`, the validators and caching headers of its 200, and its 304.
 */
export function documentConditionalRequests<T extends object>(document: T): T {
  const doc = document as unknown as OpenApiDocument;
  const components = (doc.components ??= {});
  components['parameters'] = {
    ...components['parameters'],
    IfNoneMatch: { name: 'If-None-Match', in: 'header', required: false, description: 'ETags of copies the client holds: a match is a 304 with no body.', schema: { type: 'string' } },
    IfModifiedSince: { name: 'If-Modified-Since', in: 'header', required: false, description: 'Without `If-None-Match`: a 304 when the resource (one with `Last-Modified`) has not changed since this HTTP date.', schema: { type: 'string' } },
  };
  components['headers'] = {
    ...components['headers'],
    ETag: { description: 'A strong validator: a hash of the bytes, after `r<revisionid>-` for a guide or wiki page (send it back as `If-Match` on a write).', schema: { type: 'string' } },
    LastModified: { description: 'Guides and wiki pages (categories included): when the revision read was made (a guide: or its prerequisites).', schema: { type: 'string' } },
    CacheControl: { description: '`public, no-cache` (a shared cache may keep the answer and must revalidate it) or, for a request with credentials, `private, no-cache`.', schema: { type: 'string' } },
    Vary: { description: 'Always names `Authorization` (and `Accept` where XML is offered).', schema: { type: 'string' } },
  };
  for (const operations of Object.values(doc.paths)) {
    const get = operations['get'];
    const ok = get?.responses?.['200'];
    if (!get || !ok) continue;
    // Files (archives, media) have validators and caching of their own, described on their routes.
    const content = ok['content'] as Record<string, unknown> | undefined;
    if (content && !content['application/json']) continue;
    get.parameters = [...(get.parameters ?? []), { $ref: '#/components/parameters/IfNoneMatch' }, { $ref: '#/components/parameters/IfModifiedSince' }];
    ok.headers = {
      ETag: { $ref: '#/components/headers/ETag' },
      'Last-Modified': { $ref: '#/components/headers/LastModified' },
      'Cache-Control': { $ref: '#/components/headers/CacheControl' },
      Vary: { $ref: '#/components/headers/Vary' },
      ...ok.headers,
    };
    get.responses!['304'] ??= { description: 'Not Modified: the copy the client holds is current (no body)' };
  }
  return document;
}
