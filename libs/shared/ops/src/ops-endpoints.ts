import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ProbeAnswer, Probes } from './health.js';
import { setRouteLabel } from './request-metrics.js';

/** The operator endpoints, under the API prefix like everything else. */
export const OPS_PATHS = { live: '/api/2.0/health/live', ready: '/api/2.0/health/ready', metrics: '/api/2.0/metrics' } as const;

export interface OpsEndpointsOptions {
  readonly probes: Probes;
  /** The metrics exposition (this process's, or the cluster's aggregated by the primary). */
  readonly metrics: () => Promise<{ text: string; contentType: string }>;
  /** When set, `/metrics` asks for `Authorization: Bearer <token>`. */
  readonly metricsToken: string | null;
  readonly logger: Logger;
  /** The security headers every answer of the API carries (see security-headers.ts). */
  readonly securityHeaders: (req: IncomingMessage, res: ServerResponse) => void;
}

interface OpsAnswer {
  readonly status: number;
  readonly type: string;
  readonly body: string;
  readonly headers?: Record<string, string>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Answers the health probes and the metrics ahead of Express (`true`), and declines every other
 * request (`false`): no guard, throttle or body parser sees them, and they are logged at debug
 * level only, so probes every few seconds neither fill the log nor spend a rate limit.
 */
export function opsEndpoints(options: OpsEndpointsOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { probes, logger } = options;
  const expected = options.metricsToken === null ? null : digest(`Bearer ${options.metricsToken}`);
  const authorized = (req: IncomingMessage) => {
    if (!expected) return true;
    const given = req.headers.authorization ?? '';
    // Compared as digests, in constant time; the scheme is case-insensitive.
    const normalized = /^bearer /i.test(given) ? `Bearer ${given.slice(7)}` : given;
    return timingSafeEqual(digest(normalized), expected);
  };

  const answer = (req: IncomingMessage, res: ServerResponse, started: number, route: string, work: () => Promise<OpsAnswer>) => {
    setRouteLabel(req, route);
    options.securityHeaders(req, res);
    res.setHeader('X-Request-Id', String(req.headers['x-request-id']));
    res.setHeader('Cache-Control', 'no-store');
    work()
      .catch((error: unknown): OpsAnswer => {
        logger.error({ err: error, context: 'ops', path: route }, 'operator endpoint failed');
        return { status: 500, type: 'application/json', body: JSON.stringify({ error: true, message: 'Internal server error' }) };
      })
      .then(({ status, type, body, headers }) => {
        if (res.headersSent || res.destroyed) return;
        res.statusCode = status;
        for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
        res.setHeader('Content-Type', type);
        res.setHeader('Content-Length', Buffer.byteLength(body));
        res.end(req.method === 'HEAD' ? undefined : body);
        if (logger.isLevelEnabled('debug')) logger.debug({ context: 'ops', method: req.method, path: route, status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'operator request');
      })
      // Never an unhandled rejection (it would stop the process): the connection is dropped.
      .catch(() => res.destroy());
  };

  const json = (req: IncomingMessage, probe: ProbeAnswer): OpsAnswer => ({ status: probe.status, type: 'application/json', body: JSON.stringify(probe.body, null, wantsPretty(req) ? 2 : undefined) });
  const error = (req: IncomingMessage, status: number, message: string, headers?: Record<string, string>): OpsAnswer => ({
    status,
    type: 'application/json',
    body: JSON.stringify({ error: true, message }, null, wantsPretty(req) ? 2 : undefined),
    headers,
  });

  return (req, res) => {
    const url = req.url ?? '';
    // Most requests leave at the first test.
    if (url.length < 16 || (url.charCodeAt(9) !== 0x68 /* h */ && url.charCodeAt(9) !== 0x6d) /* m */) return false;
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    const route = path === OPS_PATHS.live ? '/health/live' : path === OPS_PATHS.ready ? '/health/ready' : path === OPS_PATHS.metrics ? '/metrics' : null;
    if (!route) return false;
    const started = performance.now();
    if (req.method === 'OPTIONS') return false; // CORS preflights: Express's answer
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      answer(req, res, started, route, async () => error(req, 405, `Method ${req.method} is not allowed on this endpoint`, { Allow: 'GET, HEAD, OPTIONS' }));
      return true;
    }
    if (route === '/health/live') answer(req, res, started, route, async () => json(req, await probes.live()));
    else if (route === '/health/ready') answer(req, res, started, route, async () => json(req, await probes.ready()));
    else
      answer(req, res, started, route, async () => {
        if (!authorized(req)) return error(req, 401, 'The metrics need Authorization: Bearer <METRICS_TOKEN>', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
        const { text, contentType } = await options.metrics();
        return { status: 200, type: contentType, body: text } satisfies OpsAnswer;
      });
    return true;
  };
}

/** `?pretty` (present with any value or none) indents a JSON body, as everywhere in the API. */
function wantsPretty(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  return query >= 0 && new URLSearchParams(url.slice(query + 1)).has('pretty');
}
