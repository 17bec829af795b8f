import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_ID } from '@rc/shared-kernel';
import { guideBodyKey, type PublicGuideBodies } from './public-guide-bodies.js';
import type { GuideVersions } from './guide-versions.js';

const GUIDE_PATH = /^\/api\/2\.0\/guides\/([1-9][0-9]{0,9})$/;

/** Answers a request (`true`), possibly by handing it to `fallback` later, or declines it (`false`). */
export type HotPath = (req: IncomingMessage, res: ServerResponse, fallback: () => void) => boolean;

/** Sets what the middleware ahead of the routes sets on every response (request id, CORS, request log). */
export type ResponsePreamble = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Answers the hottest request, an anonymous `GET /api/2.0/guides/{id}` with no query string that
 * does not ask for XML, from the body cache ahead of Express and Nest: the version is remembered
 * (`notify` coherence) or looked up with one query, then the cached bytes or a 304 go out with
 * exactly the headers of the regular route. Returns `false` for anything else, and every cache miss
 * goes on to `fallback` (Express), which builds, caches and answers it.
 */
export function guideFastPath(
  bodies: PublicGuideBodies,
  versions: GuideVersions,
  preamble: ResponsePreamble,
): HotPath {
  const serve = (guideId: number, version: string | null, req: IncomingMessage, res: ServerResponse): boolean => {
    const entry = version === null ? null : bodies.cache.get(guideBodyKey(guideId, true), version);
    if (!entry) return false;
    preamble(req, res);
    bodies.answer(entry, req, res);
    return true;
  };
  return (req, res, fallback) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.authorization || !bodies.cache.enabled) return false;
    const match = GUIDE_PATH.exec(req.url ?? '');
    // XML is negotiated by the route (any Accept naming XML goes there).
    if (!match || req.headers.accept?.includes('xml')) return false;
    const guideId = Number(match[1]);
    if (guideId > MAX_ID) return false;
    const remembered = versions.peek(guideId);
    if (remembered !== undefined) return serve(guideId, remembered, req, res);
    let handedOn = false;
    const handOn = () => {
      if (handedOn) return;
      handedOn = true;
      fallback();
    };
    versions
      .version(guideId)
      .then((version) => {
        if (serve(guideId, version, req, res)) return;
        bodies.handOn(req, version);
        handOn();
      })
      .catch(() => (res.headersSent ? res.destroy() : handOn()));
    return true;
  };
}
