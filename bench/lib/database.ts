import { cpus } from 'node:os';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '@rc/shared-infra-mikro-orm';
import { startReplicatedPostgres } from '@rc/shared-infra-mikro-orm/testing';

export interface PostgresServer {
  /** `embedded` or the host of DATABASE_URL. */
  readonly description: string;
  urlFor(database: string): string;
  /** With `--replica`: the URL of a database on the streaming replica, and a wait until it has replayed everything. */
  readonly replica?: { urlFor(database: string): string; caughtUp(): Promise<void> };
  stop(): Promise<void>;
}

/**
 * `--replica`: a primary and one streaming replica of the system's PostgreSQL, in a temporary
 * folder (so the data set is generated afresh on each run), stopped and removed at the end.
 */
export async function openReplicatedServer(log: (line: string) => void): Promise<PostgresServer> {
  const started = Date.now();
  const servers = await startReplicatedPostgres();
  log(`system PostgreSQL: a primary and a streaming replica on port ${servers.replicaPort} (${Date.now() - started} ms)`);
  return {
    description: 'system PostgreSQL, primary and one streaming replica',
    urlFor: (db) => withDatabase(servers.primaryUrl, db),
    replica: { urlFor: (db) => servers.replicaUrlOf(withDatabase(servers.primaryUrl, db)), caughtUp: () => servers.caughtUp() },
    stop: () => servers.stop(),
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/**
 * The server of DATABASE_URL when given (the bench creates its own database on it, so the role
 * needs CREATEDB), otherwise a PostgreSQL embedded with the project's launcher under `dataDir`.
 */
export async function openServer(databaseUrl: string | undefined, dataDir: string, log: (line: string) => void): Promise<PostgresServer> {
  if (databaseUrl) {
    return { description: `external (${new URL(databaseUrl).host})`, urlFor: (db) => withDatabase(databaseUrl, db), stop: async () => undefined };
  }
  const started = Date.now();
  const server = await startEmbeddedPostgres({ dataDir: resolve(dataDir, 'postgres'), database: 'postgres', onNotice: log });
  log(`embedded PostgreSQL on port ${server.port} (${Date.now() - started} ms)`);
  return { description: 'embedded', urlFor: (db) => withDatabase(server.url, db), stop: () => server.stop() };
}

/** What a database was generated with, kept as the database's comment (read by `--reuse`). */
export interface DataSetStamp {
  readonly version: number;
  readonly scale: number;
  readonly seed: number;
  readonly generatedAt?: string;
  readonly seconds?: number;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export function readStamp(server: PostgresServer, database: string): Promise<DataSetStamp | null> {
  return withClient(server.urlFor('postgres'), async (client) => {
    const { rows } = await client.query<{ comment: string | null }>(`SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`, [database]);
    try {
      return rows[0]?.comment ? (JSON.parse(rows[0].comment) as DataSetStamp) : null;
    } catch {
      return null;
    }
  });
}

export function writeStamp(server: PostgresServer, database: string, stamp: DataSetStamp): Promise<void> {
  return withClient(server.urlFor('postgres'), async (client) => {
    await client.query(`COMMENT ON DATABASE "${database.replace(/"/g, '""')}" IS ${client.escapeLiteral(JSON.stringify(stamp))}`);
  });
}

/** Drops the bench database (closing its connections) and creates it empty. */
export function recreateDatabase(server: PostgresServer, database: string): Promise<void> {
  return withClient(server.urlFor('postgres'), async (client) => {
    const name = `"${database.replace(/"/g, '""')}"`;
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
}

/** Runs a command of the app's own CLI (`node apps/api/dist/cli.js ...`) on the database; returns its last line. */
export async function cli(url: string, args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ['apps/api/dist/cli.js', ...args], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', DEMO_DATA: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((ok) => child.on('exit', ok));
  if (code !== 0) throw new Error(`${args[0]} failed (exit ${code}):\n${output}`);
  return output.trim().split('\n').pop() ?? '';
}

/** Applies the app's migrations with its own CLI. */
export async function migrate(url: string, log: (line: string) => void): Promise<void> {
  log(`migrations: ${await cli(url, ['migrate'])}`);
}

/**
 * Fills the app's read model of guide bodies with its own CLI (`guides:bodies`), as a deployment
 * does after loading data around the API (the generator writes tables with COPY).
 */
export async function buildGuideBodies(url: string, baseUrl: string, log: (line: string) => void): Promise<number> {
  const started = Date.now();
  // The API's base URL: bodies are stored for the format (links) the API serves.
  const line = await cli(url, ['guides:bodies', '--workers', String(cpus().length)], { PUBLIC_BASE_URL: baseUrl });
  const seconds = (Date.now() - started) / 1000;
  log(`guide bodies read model (npm run cli -- guides:bodies --workers ${cpus().length}): ${line}; ${seconds.toFixed(1)} s`);
  return seconds;
}

/**
 * Statistics and visibility maps for every table, as autovacuum keeps them on a server running the
 * service: the data set is loaded with COPY and the read model by the CLI, and a server with
 * autovacuum off (some test servers) would leave tables the planner has never seen (a join over
 * `teams` estimated at 2 rows loops over its 2,000) and no page marked all-visible, so no
 * index-only scan (the sizes of the images a body shows are read from their index alone). Also
 * warns when autovacuum is off: what a run writes keeps these.
 */
export async function vacuumAnalyze(url: string, log: (line: string) => void): Promise<void> {
  await withClient(url, async (client) => {
    const started = Date.now();
    await client.query('VACUUM (ANALYZE)');
    const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
    log(`statistics and visibility maps of every table (VACUUM (ANALYZE)) in ${((Date.now() - started) / 1000).toFixed(1)} s${rows[0]?.autovacuum === 'off' ? "; the server's autovacuum is off: tables written during the run keep these" : ''}`);
  });
}

/**
 * Reads every table, index and TOAST table of the database once through the operating system
 * (`pg_prewarm` in `read` mode, from PostgreSQL's contrib), so its files are in the OS page cache
 * as they are on a server that has been serving for a while: without it, the first run after a
 * generation or a reboot reads the scenarios' uniform lookups from disk and measures the disk.
 * PostgreSQL's own buffers are left as they are. Skipped (and said) where the extension is missing.
 */
export async function warmOsCache(url: string, log: (line: string) => void): Promise<void> {
  await withClient(url, async (client) => {
    const started = Date.now();
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
      const { rows } = await client.query<{ blocks: string }>(
        `SELECT coalesce(sum(pg_prewarm(c.oid, 'read')), 0)::text AS blocks FROM pg_class c
          WHERE c.relkind IN ('r', 'i', 't', 'm') AND c.relpersistence = 'p' AND c.relnamespace IN ('public'::regnamespace, 'pg_toast'::regnamespace)`,
      );
      const mb = (Number(rows[0]?.blocks ?? 0) * 8) / 1024;
      log(`database files read once into the OS page cache (pg_prewarm, read): ${Math.round(mb)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      log(`database files not read ahead (${error instanceof Error ? error.message : String(error)}): the first reads of a scenario may come from disk`);
    }
  });
}
