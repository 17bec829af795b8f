import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config.js';
import { createLogger } from './logger.js';
import { startApi } from './server.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const started = Date.now();
  const api = await startApi(config, logger);
  logger.info({ url: `${api.url}/api/2.0`, docs: `${api.url}/api/2.0/docs`, database: api.database.embedded ? 'embedded' : 'external', ms: Date.now() - started }, 'API ready');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    api.close().then(
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
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`The API could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
