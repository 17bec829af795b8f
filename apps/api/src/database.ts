import { resolve } from 'node:path';
import { startEmbeddedPostgres } from '@rc/shared-infra-mikro-orm';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';

export interface Database {
  readonly url: string;
  readonly embedded: boolean;
  stop(): Promise<void>;
}

/** `DATABASE_URL` when given; otherwise a real PostgreSQL embedded under `DATA_DIR/postgres`. */
export async function openDatabase(config: AppConfig, logger: Logger): Promise<Database> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  const dataDir = resolve(config.dataDir, 'postgres');
  const started = Date.now();
  const pg = await startEmbeddedPostgres({
    dataDir,
    database: 'repair',
    onLog: (line) => logger.debug({ context: 'postgres' }, line),
    onNotice: (message) => logger.warn({ context: 'postgres' }, message),
  });
  logger.info({ dataDir, port: pg.port, ms: Date.now() - started }, 'embedded PostgreSQL started');
  return { url: pg.url, embedded: true, stop: () => pg.stop() };
}
