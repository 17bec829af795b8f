import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { AppConfig } from '../config/config.js';
import { arrivedOverTls, compileTrustProxy, type TrustProxy } from '@rc/shared-http';

/** Header names and values, in the order they are set. */
export type HeaderList = readonly (readonly [name: string, value: string])[];

/** Sets the security headers on a response, Express's or one answered before Express. */
export type ApplySecurityHeaders = (req: IncomingMessage, res: ServerResponse) => void;

/** Swagger UI's page and its files; everything else the service answers is JSON (or XML, or a zip). */
const DOCS_PATH = /^\/api\/2\.0\/docs(?:[/?#]|$)/i;

/** No content of any kind, and no framing: what a JSON (or XML, or zip) answer needs. */
export const API_CSP = "default-src 'none';frame-ancestors 'none'";

/**
 * Swagger UI (`/api/2.0/docs`) as @nestjs/swagger serves it: its scripts and style sheet come from
 * the same origin (no inline script); the page has inline `<style>` blocks and a `style` attribute,
 * and the UI sets more, so styles may be inline; its icons are `data:` images; "Try it out" calls
 * the API, at this origin or at `PUBLIC_BASE_URL`'s; its forms stay on the page. Nothing else (no
 * fonts, frames, objects, workers): `docs.system-spec.ts` checks the page in Chromium.
 */
export function docsCsp(publicBaseUrl: string): string {
  const origin = new URL(publicBaseUrl).origin;
  return [
    "default-src 'none'",
    "base-uri 'none'",
    `connect-src 'self' ${origin}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data:",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
  ].join(';');
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The headers a helmet middleware sets, learnt by running it once on a recording response. */
export function headersOf(middleware: Middleware): HeaderList {
  const headers = new Map<string, readonly [string, string]>();
  const recorder = {
    setHeader: (name: string, value: unknown) => void headers.set(name.toLowerCase(), [name, String(value)]),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
  };
  let failure: unknown = null;
  middleware({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure) throw failure;
  return [...headers.values()];
}

/** A Content-Security-Policy string as the directives helmet takes (helmet validates them and joins them with `;`). */
function cspDirectives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

export interface SecurityHeaderSets {
  /** Every JSON, XML and download answer. */
  readonly api: HeaderList;
  /** Swagger UI's page and files. */
  readonly docs: HeaderList;
  /** `Strict-Transport-Security`, for requests that arrived over TLS only. */
  readonly hsts: string;
}

/**
 * The static header sets, from helmet's defaults with these choices: the CSPs above, `no-referrer`,
 * `X-Frame-Options: DENY` (as `frame-ancestors 'none'`), and a Cross-Origin-Resource-Policy that
 * follows CORS (`cross-origin` when any origin may read the API, else `same-origin`). HSTS is left
 * out: a browser must only get it over TLS, so it is added per request.
 */
export function securityHeaderSets(config: Pick<AppConfig, 'publicBaseUrl' | 'corsOrigins'>): SecurityHeaderSets {
  const common: HelmetOptions = {
    crossOriginResourcePolicy: { policy: config.corsOrigins.includes('*') ? 'cross-origin' : 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
    xPoweredBy: false,
  };
  const withCsp = (policy: string) => headersOf(helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(policy) } }));
  const [hsts] = headersOf(helmet.strictTransportSecurity({ maxAge: 365 * 24 * 3600, includeSubDomains: true }));
  return { api: withCsp(API_CSP), docs: withCsp(docsCsp(config.publicBaseUrl)), hsts: hsts![1] };
}

/** Sets the set for the request's path, and HSTS when it arrived over TLS. No other work per request. */
export function applySecurityHeaders(sets: SecurityHeaderSets, trust: TrustProxy): ApplySecurityHeaders {
  return (req, res) => {
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
    for (const [name, value] of DOCS_PATH.test(url) ? sets.docs : sets.api) res.setHeader(name, value);
    if (arrivedOverTls(req, trust)) res.setHeader('Strict-Transport-Security', sets.hsts);
  };
}

/** `securityOf(config).apply` as Express middleware. */
export function securityHeadersMiddleware(config: AppConfig): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const { apply } = securityOf(config);
  return (req, res, next) => {
    apply(req, res);
    next();
  };
}

const computed = new WeakMap<AppConfig, { apply: ApplySecurityHeaders; trust: TrustProxy }>();

/**
 * The security headers and the trusted-proxy rule of a configuration, computed once and shared by
 * Express (middleware, `trust proxy`) and the answers given before Express (the guide hot path).
 */
export function securityOf(config: AppConfig): { readonly apply: ApplySecurityHeaders; readonly trust: TrustProxy } {
  let entry = computed.get(config);
  if (!entry) {
    const trust = compileTrustProxy(config.trustProxy);
    entry = { apply: applySecurityHeaders(securityHeaderSets(config), trust), trust };
    computed.set(config, entry);
  }
  return entry;
}
