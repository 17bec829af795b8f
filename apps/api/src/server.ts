import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppModule, type AppModuleOptions } from './app.module.js';
import type { AppConfig } from './config/config.js';
import { API_PREFIX, configureApp, responsePreamble } from './configure-app.js';
import { openDatabase, type Database } from './database.js';
import { ApiExpressAdapter, hotPaths, installFallbacks, installHotPath, installProtocolErrors, KeptAnswers } from '@rc/shared-http';
import { NestPinoLogger } from './logger.js';
import { migrate, provision } from './provisioning.js';
import { GuideEventRelay } from './events/guide-event-relay.js';
import { ArchiveScheduler } from '@rc/archive-http';
import { RequestContext } from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { ResumeStalledMedia } from '@rc/media-domain';
import { MEDIA_DEPS, MediaJobHandlers } from '@rc/media-http';
import { WebhookJobs } from '@rc/webhooks-http';
import { BackgroundJobs } from '@rc/shared-jobs';
import { guideFastPath, GuideVersions, PublicGuideBodies } from '@rc/guides-http';
import { RequestStampReader } from '@rc/shared-infra-mikro-orm';
import { CONSISTENCY_HEADER } from './replicas/read-consistency.js';
import { beginShutdown, installOperability } from './ops/install.js';

export interface RunningApi {
  readonly app: NestExpressApplication;
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  readonly database: Database;
  /** Stops accepting, lets in-flight requests finish, closes the pool, stops an embedded server. */
  close(): Promise<void>;
}

export type StartOptions = Omit<AppModuleOptions, 'databaseUrl' | 'config' | 'logger'> & {
  /** `false`: skip the configured content (admin, app ids, demo data), which another process provisions. */
  readonly provision?: boolean;
  /** `false`: Express answers everything (the tests compare the hot path's answers with the routes'). */
  readonly hotPath?: boolean;
};

/** Creates the Nest application on a database: migrations applied, configured content provisioned. */
export async function createApi(config: AppConfig, logger: Logger, databaseUrl: string, options: StartOptions = {}): Promise<NestExpressApplication> {
  const { provision: provisioning = true, hotPath = true, ...moduleOptions } = options;
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, logger, databaseUrl, ...moduleOptions }),
    new ApiExpressAdapter(),
    { bodyParser: false, logger: new NestPinoLogger(logger), abortOnError: false },
  );
  configureApp(app, config, logger);
  await app.init();
  // Anonymous reads answered ahead of Express: guide bodies, and kept lists, pages and searches (with replicas, for the stamp of the server the request would read, with its token).
  const preamble = responsePreamble(config, logger), kept = app.get(KeptAnswers).hotPath(`/${API_PREFIX}`, (app.getHttpAdapter() as ApiExpressAdapter).routes, new RequestStampReader(app.get(MikroORM).em, CONSISTENCY_HEADER), preamble);
  if (hotPath) installHotPath(app.getHttpServer(), hotPaths(guideFastPath(app.get(PublicGuideBodies), app.get(GuideVersions), preamble), kept));
  // Ahead of the hot path: request ids and contexts, request metrics, health probes and metrics.
  installOperability(app);
  installProtocolErrors(app.getHttpServer(), logger);
  installFallbacks(app.getHttpAdapter().getInstance(), logger);
  const applied = await migrate(app);
  if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
  if (provisioning) await provision(app, config, logger);
  // After the migrations: the relay's tables exist now.
  if (config.eventDelivery) await app.get(GuideEventRelay).start(databaseUrl);
  // After the migrations too: the jobs read the media tables (pg-boss migrates its own schema); then the media sweep is enqueued.
  await app.get(BackgroundJobs).start(databaseUrl, app.get(MediaJobHandlers).handlers, config.mediaWorkerConcurrency).then(() => app.get(MediaJobHandlers).startSweep());
  // Sizes of images left without a job (the demo's, loaded before the queue started).
  await RequestContext.create(app.get(MikroORM).em, () => new ResumeStalledMedia(app.get(MEDIA_DEPS)).execute({ olderThanMinutes: 0 }));
  // The webhooks' deliveries (jobs on the same queue) and their sweeper, which fans committed events out and enqueues the deliveries due.
  await app.get(WebhookJobs).start(databaseUrl, app.get(BackgroundJobs));
  // A server (not the CLI) checks for changed content on a timer, and builds a first archive now
  // when there is none: after the migrations, since a build reads the content.
  app.get(ArchiveScheduler).start(config.archiveCheckSeconds);
  return app;
}

export async function startApi(config: AppConfig, logger: Logger, options: StartOptions = {}): Promise<RunningApi> {
  const database = await openDatabase(config, logger);
  let app: NestExpressApplication;
  try {
    app = await createApi(config, logger, database.url, options);
    await app.listen(config.port, config.host);
  } catch (error) {
    await database.stop();
    throw error;
  }
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let closing: Promise<void> | null = null;
  return {
    app,
    database,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close() {
      closing ??= (async () => {
        // Node's close() ends only the connections idle at that moment: one whose request is in
        // flight would stay open after its response, waiting for a next request for the keep-alive
        // timeout (5 s). While closing, each is ended as soon as it falls idle.
        const http = app.getHttpServer();
        const endIdle = setInterval(() => http.closeIdleConnections(), 50).unref();
        try {
          // Readiness turns 503 first, while the server still accepts (SHUTDOWN_DELAY_SECONDS).
          await beginShutdown(app, config.shutdownDelaySeconds);
          // Nest closes the HTTP server first (it stops accepting, idle keep-alive connections
          // close, requests in flight finish), then runs the shutdown hooks that close the pool.
          await app.close();
        } finally {
          clearInterval(endIdle);
          await database.stop();
        }
      })();
      return closing;
    },
  };
}
