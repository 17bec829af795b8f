// Loaded only when the environment asks for traces (see telemetry.ts): the one module that imports
// the OpenTelemetry SDK.
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import type { Logger } from 'pino';
import { OPS_PATHS } from './ops-endpoints.js';
import { NO_ROUTE, routeLabel } from './request-metrics.js';
import type { Telemetry } from './telemetry.js';

type Env = Record<string, string | undefined>;

const PROBES = new Set<string>(Object.values(OPS_PATHS));

/**
 * Starts the OpenTelemetry Node SDK, configured by the standard `OTEL_*` variables (exporter,
 * endpoint, protocol, sampler, resource, service name), with two instrumentations: `http` (a
 * server span per request, named after its route template, the hot path's too; client spans) and
 * `pg` (a span per query and per pool checkout, children of the request's span).
 *
 * This is a native ESM application, whose modules are loaded before any code of it runs, and
 * OpenTelemetry instruments a module by intercepting its loading (`require-in-the-middle` for
 * CommonJS, `import-in-the-middle` with a loader hook registered at start for ESM). Neither is
 * needed here: `node:http` and `pg` are CommonJS (an ESM `import` of them gets the same module
 * objects as `require`), and both instrumentations patch prototypes (`http.Server.prototype.emit`,
 * `pg.Client.prototype.query`, `pg-pool`'s `Pool.prototype.connect`). So once the SDK has installed
 * its `require` hook, requiring the three modules again hands their (cached) exports to the
 * instrumentations, which patch the prototypes every importer shares: servers and pools created
 * before or after are traced. No `--import` flag, no loader hook, nothing when tracing is off.
 * ESM-only packages (Nest, MikroORM) get no spans of their own.
 */
export function startTracing(logger: Logger, env: Env): Telemetry {
  // Traces only: the metrics are Prometheus's (/api/2.0/metrics) and the logs are stdout's,
  // unless the operator asks for OTLP ones too.
  process.env['OTEL_METRICS_EXPORTER'] ??= 'none';
  process.env['OTEL_LOGS_EXPORTER'] ??= 'none';
  const sdk = new NodeSDK({
    serviceName: env['OTEL_SERVICE_NAME'] ?? 'repair-content-api',
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes every few seconds are not worth a trace each.
        ignoreIncomingRequestHook: (req) => PROBES.has((req.url ?? '').split('?')[0]!),
        applyCustomAttributesOnSpan: (span, request) => {
          if (!('headers' in request) || !('httpVersion' in request)) return;
          const route = routeLabel(request as IncomingMessage);
          if (route === NO_ROUTE) return;
          const template = `/api/2.0${route === '/' ? '' : route}`;
          span.setAttribute('http.route', template);
          span.updateName(`${request.method ?? 'GET'} ${template}`);
        },
      }),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  const require = createRequire(import.meta.url);
  require('node:http');
  require('pg');
  // pg-pool as pg itself resolves it.
  createRequire(require.resolve('pg'))('pg-pool');
  logger.info({ context: 'telemetry', exporter: env['OTEL_TRACES_EXPORTER'] ?? 'otlp', endpoint: env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] ?? env['OTEL_EXPORTER_OTLP_ENDPOINT'] }, 'OpenTelemetry tracing on');
  return { shutdown: () => sdk.shutdown() };
}
