import type { GuideId, GuideQueries } from '@rc/guides-domain';
import type { Request, Response } from 'express';
import { NOT_MODIFIED, SerializedJson } from '../http/respond.js';
import { jsonOf, matchesEtag, type CachedBody, type GuideBodyCache } from './guide-body-cache.js';
import type { GuideReader } from './guide-reader.js';

/** Whether the client takes gzip (cached bodies are kept gzipped: sending them so costs nothing). */
const acceptsGzip = (req: Request) => !!req.headers['accept-encoding'] && req.acceptsEncodings('gzip', 'identity') === 'gzip';

export const guideBodyKey = (guideId: number, inlinePrerequisites: boolean) => `${guideId}:${inlinePrerequisites ? 'inline' : 'own'}`;

/**
 * `GET /guides/{id}` for anonymous readers of public guides: one cheap version lookup per request,
 * then the cached serialized body when it was built from that version, or a fresh one. Answers
 * carry a strong ETag (a hash of the bytes) and `Cache-Control: public, no-cache`, so a gateway
 * may keep them and revalidate; a matching `If-None-Match` is a 304 without building anything.
 */
export class PublicGuideBodies {
  constructor(
    private readonly reader: GuideReader,
    private readonly queries: GuideQueries,
    readonly cache: GuideBodyCache,
  ) {}

  /** The body (or NOT_MODIFIED), with its headers set; `null` when the guide is not public: the caller answers as usual. */
  async read(guideId: GuideId, inlinePrerequisites: boolean, req: Request, res: Response): Promise<object | null> {
    const version = await this.queries.publicVersion(guideId);
    if (version === null) return null;
    const key = guideBodyKey(guideId, inlinePrerequisites);
    let entry = this.cache.get(key, version);
    let json: Buffer | null = null;
    if (!entry) ({ entry, json } = this.cache.put(key, version, await this.reader.guide(guideId, null, { inlinePrerequisites })));
    const gzip = acceptsGzip(req);
    this.setHeaders(entry, res, gzip);
    if (matchesEtag(req.headers['if-none-match'], gzip ? entry.etagGzip : entry.etag)) return NOT_MODIFIED;
    return gzip ? new SerializedJson(entry.gzip, 'gzip') : new SerializedJson(json ?? jsonOf(entry));
  }

  /** Answers a cached body directly (the fast path), with exactly the headers of the route. */
  answer(entry: CachedBody, req: Request, res: Response): void {
    res.vary('Accept');
    const gzip = acceptsGzip(req);
    this.setHeaders(entry, res, gzip);
    if (matchesEtag(req.headers['if-none-match'], gzip ? entry.etagGzip : entry.etag)) {
      res.status(304).end();
      return;
    }
    const bytes = gzip ? entry.gzip : jsonOf(entry);
    res.status(200);
    res.setHeader('Content-Type', 'application/json');
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', bytes.length);
    res.end(req.method === 'HEAD' ? undefined : bytes);
  }

  private setHeaders(entry: CachedBody, res: Response, gzip: boolean): void {
    res.setHeader('ETag', gzip ? entry.etagGzip : entry.etag);
    res.setHeader('Cache-Control', 'public, no-cache');
    res.vary('Authorization');
    res.vary('Accept-Encoding');
  }
}
