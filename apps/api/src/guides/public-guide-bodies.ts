import type { IncomingMessage, ServerResponse } from 'node:http';
import accepts from 'accepts';
import type { GuideId } from '@rc/guides-domain';
import vary from 'vary';
import { NOT_MODIFIED, SerializedJson } from '../http/respond.js';
import { jsonOf, matchesEtag, type CachedBody, type GuideBodyCache } from './guide-body-cache.js';
import type { GuideReader } from './guide-reader.js';
import type { GuideVersions } from './guide-versions.js';

/** Whether the client takes gzip (cached bodies are kept gzipped: sending them so costs nothing). */
const acceptsGzip = (req: IncomingMessage) => !!req.headers['accept-encoding'] && accepts(req).encoding('gzip', 'identity') === 'gzip';

export const guideBodyKey = (guideId: number, inlinePrerequisites: boolean) => `${guideId}:${inlinePrerequisites ? 'inline' : 'own'}`;

/**
 * `GET /guides/{id}` for anonymous readers of public guides: the guide's current version (remembered,
 * or one cheap lookup), then the cached serialized body when it was built from that version, or a
 * fresh one. Answers carry a strong ETag (a hash of the bytes) and `Cache-Control: public,
 * no-cache`, so a gateway may keep them and revalidate; a matching `If-None-Match` is a 304
 * without building anything.
 */
export class PublicGuideBodies {
  /** Versions the fast path already looked up for requests it handed on (one lookup per request). */
  private readonly lookedUp = new WeakMap<IncomingMessage, string | null>();

  constructor(
    private readonly reader: GuideReader,
    private readonly versions: GuideVersions,
    readonly cache: GuideBodyCache,
  ) {}

  /** The body (or NOT_MODIFIED), with its headers set; `null` when the guide is not public: the caller answers as usual. */
  async read(guideId: GuideId, inlinePrerequisites: boolean, req: IncomingMessage, res: ServerResponse): Promise<object | null> {
    const version = this.lookedUp.has(req) ? this.lookedUp.get(req)! : await this.versions.version(guideId);
    if (version === null) return null;
    const key = guideBodyKey(guideId, inlinePrerequisites);
    let entry = this.cache.get(key, version);
    let json: Buffer | null = null;
    if (!entry) {
      const mark = this.versions.sequence;
      const body = await this.reader.guide(guideId, null, { inlinePrerequisites });
      // Kept until an announced change when no change to the users it shows was announced meanwhile.
      ({ entry, json } = this.cache.put(key, version, body, { pinned: (users) => this.versions.usersUnchangedSince(mark, users) }));
    }
    const gzip = acceptsGzip(req);
    this.setHeaders(entry, res, gzip);
    if (matchesEtag(req.headers['if-none-match'], gzip ? entry.etagGzip : entry.etag)) return NOT_MODIFIED;
    return gzip ? new SerializedJson(entry.gzip, 'gzip') : new SerializedJson(json ?? jsonOf(entry));
  }

  /** Hands a request on to the route with the version just looked up for it. */
  handOn(req: IncomingMessage, version: string | null): void {
    this.lookedUp.set(req, version);
  }

  /** Answers a cached body directly (the fast path), with exactly the headers of the route. */
  answer(entry: CachedBody, req: IncomingMessage, res: ServerResponse): void {
    vary(res, 'Accept');
    const gzip = acceptsGzip(req);
    this.setHeaders(entry, res, gzip);
    if (matchesEtag(req.headers['if-none-match'], gzip ? entry.etagGzip : entry.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const bytes = gzip ? entry.gzip : jsonOf(entry);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json');
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', bytes.length);
    res.end(req.method === 'HEAD' ? undefined : bytes);
  }

  private setHeaders(entry: CachedBody, res: ServerResponse, gzip: boolean): void {
    res.setHeader('ETag', gzip ? entry.etagGzip : entry.etag);
    res.setHeader('Cache-Control', 'public, no-cache');
    vary(res, 'Authorization');
    vary(res, 'Accept-Encoding');
  }
}
