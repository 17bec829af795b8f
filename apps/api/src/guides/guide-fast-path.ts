import type { OnModuleDestroy } from '@nestjs/common';
import { MAX_ID } from '@rc/shared-kernel';
import type { RequestHandler } from 'express';
import pg from 'pg';
import { wantsXml } from '../xml/xml-response.js';
import { PUBLIC_GUIDE_VERSION_SQL } from '@rc/guides-infra-mikro-orm';
import { guideBodyKey, type PublicGuideBodies } from './public-guide-bodies.js';

/**
 * The version lookup of the hot path on a small pool of its own: one prepared statement, no ORM
 * context. The same SQL as the guides read port's `publicVersion`.
 */
export class GuideVersionLookup implements OnModuleDestroy {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string, size = 4) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: size, application_name: 'rc-guide-versions' });
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  async version(guideId: number): Promise<string | null> {
    const { rows } = await this.pool.query<{ version: string }>({ name: 'rc-guide-version', text: PUBLIC_GUIDE_VERSION_SQL, values: [guideId] });
    return rows[0]?.version ?? null;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}

const GUIDE_PATH = /^\/api\/2\.0\/guides\/([1-9][0-9]{0,9})$/;

/**
 * Answers the hottest request, an anonymous `GET /api/2.0/guides/{id}` with no query string, from
 * the body cache ahead of the framework: one version lookup, then the cached bytes (or a 304).
 * Anything else, and every cache miss, goes on to the regular route, which builds, caches and
 * answers it with the same headers. The request id, CORS and 405 middleware have already run.
 */
export function guideFastPath(bodies: PublicGuideBodies, lookup: GuideVersionLookup): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.authorization || req.url.includes('?')) return next();
    const match = GUIDE_PATH.exec(req.path);
    if (!match || Number(match[1]) > MAX_ID || wantsXml(req)) return next();
    const guideId = Number(match[1]);
    lookup.version(guideId).then(
      (version) => {
        const entry = version === null ? null : bodies.cache.get(guideBodyKey(guideId, true), version);
        if (!entry) return next();
        bodies.answer(entry, req, res);
      },
      () => next(),
    );
  };
}
