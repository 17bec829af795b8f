/**
 * The routes of the application, recorded as Nest's HTTP adapter is asked to register them
 * (controllers' routes and Swagger UI's alike, see ApiExpressAdapter): what the 405 handling
 * reads, instead of the router's internals. Paths hold literal segments and `:name` parameters
 * only, which Express matches the same way (case-sensitively, with an optional trailing slash, a
 * parameter being one non-empty segment); a route with any other pattern syntax is refused when it
 * is registered, so the 405s cannot silently drift from the routing.
 */
export class RouteTable {
  private readonly routes: { readonly method: string; readonly segments: readonly string[] }[] = [];

  add(method: string, path: string): void {
    if (/[*?+()[\]{}!]/.test(path)) throw new Error(`RouteTable: only literal segments and :parameters are supported, not ${path}`);
    this.routes.push({ method: method.toUpperCase(), segments: segmentsOf(path) });
  }

  /** The methods of the routes that match the path (none: no route has it). */
  methodsOf(path: string): Set<string> {
    const segments = segmentsOf(path);
    const methods = new Set<string>();
    for (const route of this.routes) if (matches(route.segments, segments)) methods.add(route.method);
    return methods;
  }

  /**
   * The route Express gives a request of `method` for `path` (the first registered that matches:
   * a GET route answers HEAD too), with the path's parameters as sent (not decoded), else null.
   */
  routeOf(method: string, path: string): { readonly method: string; readonly path: string; readonly params: string[] } | null {
    const segments = segmentsOf(path);
    for (const route of this.routes) {
      if (!(route.method === method || (method === 'HEAD' && route.method === 'GET')) || !matches(route.segments, segments)) continue;
      return { method: route.method, path: route.segments.join('/'), params: route.segments.flatMap((segment, i) => (segment.startsWith(':') ? [segments[i]!] : [])) };
    }
    return null;
  }
}

/** `/a/b/` and `/a/b` alike (one trailing slash is optional, as in Express's non-strict routing). */
function segmentsOf(path: string): string[] {
  return (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
}

function matches(route: readonly string[], path: readonly string[]): boolean {
  if (route.length !== path.length) return false;
  return route.every((segment, i) => (segment.startsWith(':') ? path[i]!.length > 0 : segment === path[i]));
}
