import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { securityOf } from '../security/security-headers.js';
import { Operability } from './ops.module.js';
import { assignRequestId, opsEndpoints, requestTimer, runInRequest } from '@rc/shared-ops';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts the operability layer ahead of everything on the HTTP server (the hot path, then Express):
 * each request gets its id and runs in its request context (every line logged while it is handled
 * carries the id), is timed for the metrics whoever answers it, and the health probes and metrics
 * are answered here. Call once, after the hot path is installed.
 */
export function installOperability(app: INestApplication): void {
  const ops = app.get(Operability);
  const server = app.getHttpServer() as Server;
  const [inner] = server.listeners('request') as RequestListener[];
  if (!inner) throw new Error('the HTTP server has no request handler to observe');
  const answersOps = opsEndpoints({ probes: ops.probes, metrics: ops.exposition, metricsToken: ops.config.metricsToken, logger: ops.logger, securityHeaders: securityOf(ops.config).apply });
  const time = requestTimer((method, route, status, seconds) => ops.metrics.observe(method, route, status, seconds));
  const handle: RequestListener = (req, res) => {
    if (!answersOps(req, res)) inner(req, res);
  };
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const id = assignRequestId(req);
    time(req, res);
    runInRequest(id, handle, req, res);
  });
}

/**
 * The start of a shutdown: readiness answers 503 from now on, and the server keeps accepting for
 * `delaySeconds` more (SHUTDOWN_DELAY_SECONDS), time for a gateway polling readiness to stop
 * sending requests here, before it closes.
 */
export async function beginShutdown(app: INestApplication, delaySeconds: number): Promise<void> {
  const ops = app.get(Operability);
  ops.probes.beginShutdown();
  if (delaySeconds > 0) {
    ops.logger.info({ context: 'health', seconds: delaySeconds }, 'readiness is down: closing the server after the shutdown delay');
    await new Promise((resolve) => setTimeout(resolve, delaySeconds * 1000));
  }
}
