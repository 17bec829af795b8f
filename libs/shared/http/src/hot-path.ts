import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { RequestStamp } from '@rc/shared-infra-mikro-orm';
import { setRouteLabel } from '@rc/shared-ops';
import { sendKeptJson } from './respond.js';
import type { RouteTable } from './route-table.js';
import type { StampedBodies, StampedBody, StampSource } from './stamped-bodies.js';

/** Answers a request (`true`), possibly by handing it to `fallback` later, or declines it (`false`): Express answers. */
export type HotPath = (req: IncomingMessage, res: ServerResponse, fallback: () => void) => boolean;

/** Sets what the middleware ahead of the routes sets on every response (security headers, request id and log, CORS). */
export type ResponsePreamble = (req: IncomingMessage, res: ServerResponse) => void;

/** The first of `paths` that answers the request, else `false`. */
export function hotPaths(...paths: HotPath[]): HotPath {
  return (req, res, fallback) => paths.some((path) => path(req, res, fallback));
}

/**
 * Puts `hot` ahead of Express on the HTTP server: it answers what it can (returning `true`, possibly
 * handing the request back to Express later through its fallback) and leaves the rest to Express.
 */
export function installHotPath(server: Server, hot: HotPath): void {
  const [express] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (!express) throw new Error('the HTTP server has no request handler to put the hot path ahead of');
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let handled: boolean;
    try {
      handled = hot(req, res, () => express(req, res));
    } catch {
      // Never a crash for one request: Express answers it unless the hot path had begun to.
      if (res.headersSent) return void res.destroy();
      handled = false;
    }
    if (!handled) express(req, res);
  });
}

/** Reads the content stamp for a request ahead of its route (RequestStampReader in the shared infra library). */
export interface RequestStamps {
  read(req: IncomingMessage): Promise<RequestStamp>;
}

/** The content stamp read for a request ahead of its route (see {@link stampFor}). */
const readFor = new WeakMap<IncomingMessage, RequestStamp>();

/**
 * The content stamp for a request: the one read for it on its way to the route (after it arrived,
 * so as fresh as a read now) when the route reads the same server, else a read now.
 */
export function stampFor(req: IncomingMessage, stamps: StampSource): Promise<string> {
  const read = readFor.get(req);
  return read === undefined || read.server !== (stamps.server?.() ?? null) ? stamps.current() : Promise.resolve(read.stamp);
}

/** One route whose anonymous answers are kept in StampedBodies, registered with {@link KeptAnswers}. */
export interface KeptRoute<T = unknown> {
  /** The route's template after the API prefix, as declared (`/search/:query`): also its metrics label. */
  readonly route: string;
  readonly bodies: StampedBodies<T>;
  /**
   * The key the route keeps this request's answer under, or `null` when the route would not serve
   * a kept answer to it. `url`: path and query as sent; `params`: the path's parameters, decoded.
   * Default: the URL as sent (routes keyed by `originalUrl`).
   */
  key?(url: string, params: readonly string[], req: IncomingMessage): string | null;
  /**
   * Whether the route would serve this kept answer now (else it builds one: the route answers the
   * request), and what serving it does besides sending it, as the route does (a revision's
   * validators, a view counted). Default: served as it is.
   */
  serve?(entry: StampedBody<T>, req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * The routes whose kept answers (see StampedBodies) are served ahead of Express, each registered
 * by the context that keeps them (it alone knows its keys and what serving one does). An
 * anonymous GET or HEAD (no `Authorization`, no body) of a registered route, as the route table
 * routes it, whose kept answer holds for the content stamp read after the request arrived, is
 * answered here with the route's status, headers, validators (a 304 when they match) and bytes;
 * anything else goes to Express, handed the stamp just read (see {@link stampFor}).
 */
export class KeptAnswers {
  private readonly routes = new Map<string, KeptRoute<never>>();
  /** Answers sent by the hot path (for the tests and the metrics). */
  served = 0;

  register<T>(route: KeptRoute<T>): void {
    if (this.routes.has(route.route)) throw new Error(`KeptAnswers: ${route.route} is registered twice`);
    this.routes.set(route.route, route as unknown as KeptRoute<never>);
  }

  /** Registers `routes`, whose answers `bodies` keeps under their URL as sent (as serveStamped keeps them); answers `bodies`. */
  byUrl<B extends StampedBodies>(bodies: B, ...routes: string[]): B {
    for (const route of routes) this.register({ route, bodies });
    return bodies;
  }

  /** How many routes are registered (for the tests). */
  get size(): number {
    return this.routes.size;
  }

  /**
   * The hot path answering the registered routes: `prefix` is the API's (`/api/2.0`), `table` the
   * application's routes, `stamps` reads the content stamp for a request (on the server its reads
   * would go to), `preamble` sets what the middleware ahead of the routes sets.
   */
  hotPath(prefix: string, table: RouteTable, stamps: RequestStamps, preamble: ResponsePreamble): HotPath {
    return (req, res, fallback) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.authorization !== undefined || this.routes.size === 0) return false;
      // A body is read (and maybe refused) by the middleware: Express answers.
      if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')) return false;
      const url = req.url ?? '';
      const query = url.indexOf('?');
      const path = query < 0 ? url : url.slice(0, query);
      if (!path.startsWith(prefix)) return false;
      const matched = table.routeOf(req.method, path);
      if (!matched || matched.method !== 'GET' || !matched.path.startsWith(prefix)) return false;
      const route = this.routes.get(matched.path.slice(prefix.length));
      if (!route || !route.bodies.enabled) return false;
      let key: string | null;
      try {
        key = route.key ? route.key(url, matched.params.map((p) => decodeURIComponent(p)), req) : url;
      } catch {
        // A parameter Express cannot decode either: it answers the 400.
        return false;
      }
      if (key === null) return false;
      let handedOn = false;
      const handOn = () => {
        if (handedOn) return;
        handedOn = true;
        fallback();
      };
      stamps.read(req).then(
        (read) => {
          const entry = read.headers ? route.bodies.peek(key, read.stamp) : null;
          if (!entry || !read.headers || (route.serve && !route.serve(entry, req, res))) {
            readFor.set(req, read);
            return handOn();
          }
          route.bodies.hits++;
          this.served++;
          setRouteLabel(req, route.route);
          preamble(req, res);
          for (const [name, value] of read.headers) res.setHeader(name, value);
          sendKeptJson(req, res, entry, entry.hash);
        },
        handOn,
      ).catch(() => (res.headersSent ? res.destroy() : handOn()));
      return true;
    };
  }
}
