import type { IncomingMessage, ServerResponse } from 'node:http';

const START = Symbol('requestStart');
const ROUTE = Symbol('routeLabel');

type Timed = ServerResponse & { [START]?: number };
type Labelled = IncomingMessage & { [ROUTE]?: string; route?: { path?: unknown; methods?: Record<string, boolean> } };

/** The API prefix, left out of route labels. */
const PREFIX = '/api/2.0';
/** The hot path's one route (`GET /api/2.0/guides/{id}`, answered ahead of Express). */
const HOT_GUIDE = /^\/api\/2\.0\/guides\/[0-9]+(?:\?|$)/;
/** The label of requests no route template matched: 404s, 405s, preflights, Swagger UI, bodies refused before routing. */
export const NO_ROUTE = '<none>';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Status labels, made once each. */
const STATUSES = new Map<number, string>();

/** Names the route of a request answered outside Express (the operator endpoints). */
export function setRouteLabel(req: IncomingMessage, route: string): void {
  (req as Labelled)[ROUTE] = route;
}

/**
 * The route template of a finished request, never its URL (the label's values must stay few):
 * the Express route that matched (`/guides/:guideid`), the label set by the code that answered
 * outside Express, the hot path's route, or `<none>`.
 */
export function routeLabel(req: IncomingMessage): string {
  const labelled = req as Labelled;
  const route = labelled.route;
  const path = route?.path;
  // Routes answering every method are Nest's not-found handler and middleware, not endpoints.
  if (typeof path === 'string' && !route!.methods?.['_all'] && !route!.methods?.['acl']) return path.startsWith(PREFIX) ? path.slice(PREFIX.length) || '/' : path;
  if (labelled[ROUTE]) return labelled[ROUTE];
  if (HOT_GUIDE.test(req.url ?? '')) return '/guides/:guideid';
  return NO_ROUTE;
}

export function methodLabel(method: string | undefined): string {
  return method !== undefined && METHODS.has(method) ? method : 'other';
}

export function statusLabel(res: ServerResponse): string {
  if (!res.writableFinished) return 'aborted';
  const code = res.statusCode;
  let label = STATUSES.get(code);
  if (label === undefined && code >= 100 && code < 600) STATUSES.set(code, (label = String(code)));
  return label ?? 'other';
}

/**
 * Times every request from the moment the server hands it over to the moment its response is
 * done (or its connection closed first), whoever answers it: the operator endpoints, the hot path
 * or Express. One shared listener per response, no closure per request.
 */
export function requestTimer(observe: (method: string, route: string, status: string, seconds: number) => void): (req: IncomingMessage, res: ServerResponse) => void {
  function closed(this: Timed): void {
    const started = this[START];
    if (started === undefined) return;
    this[START] = undefined;
    observe(methodLabel(this.req.method), routeLabel(this.req), statusLabel(this), (performance.now() - started) / 1000);
  }
  return (_req, res) => {
    (res as Timed)[START] = performance.now();
    res.once('close', closed);
  };
}
