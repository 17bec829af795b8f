import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_ID } from '@rc/shared-kernel';
import { newestRevisionNamed, type HotPath, type ResponsePreamble } from '@rc/shared-http';
import type { CachedBody } from './guide-body-cache.js';
import type { PublicGuideBodies } from './public-guide-bodies.js';
import type { GuideVersions } from './guide-versions.js';

const GUIDE_PATH = /^\/api\/2\.0\/guides\/([1-9][0-9]{0,9})$/;

/**
 * Answers the hottest request, an anonymous `GET /api/2.0/guides/{id}` with no query string that
 * does not ask for XML, ahead of Express and Nest: the version is remembered (`notify` coherence) or
 * looked up with the read model's body in one query, then the cached bytes (or the body made from
 * the read model, or built) or a 304 go out with exactly the headers of the regular route. Returns
 * `false` for anything else; a guide that is not public, and any failure, goes on to `fallback`
 * (Express), which answers it.
 */
export function guideFastPath(
  bodies: PublicGuideBodies,
  versions: GuideVersions,
  preamble: ResponsePreamble,
): HotPath {
  const serve = (guideId: number, entry: CachedBody, req: IncomingMessage, res: ServerResponse, json: string | null = null): true => {
    preamble(req, res);
    bodies.answer(entry, req, res, json);
    // A 200 or a 304 of a GET is a view (a HEAD reads no body).
    if (req.method === 'GET') bodies.viewed(guideId);
    return true;
  };
  return (req, res, fallback) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.authorization || !bodies.cache.enabled) return false;
    const match = GUIDE_PATH.exec(req.url ?? '');
    // XML is negotiated by the route (any Accept naming XML goes there).
    if (!match || req.headers.accept?.includes('xml')) return false;
    const guideId = Number(match[1]);
    if (guideId > MAX_ID) return false;
    // A client that has seen a newer revision (on another instance) than the one remembered.
    if (req.headers['if-none-match'] !== undefined) versions.forgetOlderThan(guideId, newestRevisionNamed(req.headers['if-none-match']));
    const remembered = versions.peek(guideId);
    // Remembered as not public: the route answers.
    if (remembered === null) return false;
    const hit = remembered === undefined ? null : bodies.cached(guideId, true, remembered);
    if (hit) return serve(guideId, hit, req, res);
    let handedOn = false;
    const handOn = () => {
      if (handedOn) return;
      handedOn = true;
      fallback();
    };
    bodies
      .current(guideId, true)
      .then((made) => {
        if (made) return serve(guideId, made.entry, req, res, made.json);
        bodies.handOnNotPublic(req);
        handOn();
      })
      .catch(() => (res.headersSent ? res.destroy() : handOn()));
    return true;
  };
}
