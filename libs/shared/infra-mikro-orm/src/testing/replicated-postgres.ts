import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, postmasterReady } from '../embedded-postgres.js';

const run = promisify(execFile);
const USER = 'postgres';
/** How long a wait for the replica (its replay pausing, or catching up) may take before it is an error. */
const WAIT_MS = 30_000;

/** A primary and one streaming replica of it, each a `postgres` child process of this one. */
export interface ReplicatedPostgres {
  /** The primary's `postgres` database (an admin connection: create test databases with it). */
  readonly primaryUrl: string;
  readonly replicaPort: number;
  /** The URL of the same database on the replica. */
  replicaUrlOf(primaryDatabaseUrl: string): string;
  /** Replay on the replica stops (WAL still arrives) until {@link resumeReplay}. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary wrote so far. */
  caughtUp(): Promise<void>;
  /** Stops the replica (a fast shutdown); {@link startReplica} starts it again on the same port. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Stops both servers and removes their folders. */
  stop(): Promise<void>;
}

/**
 * The folder of the PostgreSQL server binaries installed by the system's packages (Debian puts
 * each major version under /usr/lib/postgresql/<version>/bin): the newest one, or `PG_BIN_DIR`.
 */
export async function systemPostgresBin(): Promise<string> {
  const configured = process.env['PG_BIN_DIR'];
  if (configured) return configured;
  const root = '/usr/lib/postgresql';
  let versions: string[];
  try {
    versions = (await readdir(root)).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
  } catch {
    versions = [];
  }
  if (!versions.length) throw new Error(`No PostgreSQL server binaries under ${root} (install the postgresql package, or set PG_BIN_DIR)`);
  return join(root, versions[0]!, 'bin');
}

/** As root, PostgreSQL's programs run as the `postgres` system user (they refuse to run as root). */
async function runAs(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const id = async (flag: string) => Number((await run('id', [flag, USER])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

interface Server {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

/**
 * Starts a primary (initdb in a temporary folder, `wal_level=replica`, a free port) and a streaming
 * replica made from it with `pg_basebackup -R`, using the system's PostgreSQL binaries. Everything
 * listens on 127.0.0.1 only, with trust authentication. Call `stop()` at the end.
 */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = await systemPostgresBin();
  const ids = await runAs();
  const root = await mkdtemp(join(tmpdir(), 'rc-replicated-pg-'));
  await chmod(root, 0o755);
  if (ids.uid !== undefined) await chown(root, ids.uid, ids.gid!);
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  const asUser = (program: string, args: string[]) => run(join(bin, program), args, { ...ids, cwd: root, env: { ...process.env, LC_ALL: 'C' } });

  const servers: Server[] = [];
  let replica: Server | null = null;
  const primaryPort = await freePort();
  const replicaPort = await freePort();
  const start = async (dataDir: string, port: number): Promise<Server> => {
    const child = spawn(join(bin, 'postgres'), ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${root}`, '-c', 'wal_level=replica', '-c', 'hot_standby=on', '-c', 'max_wal_senders=5', '-c', 'fsync=off'], {
      ...ids,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    await postmasterReady(child, `PostgreSQL in ${dataDir}`);
    const server = { child, exited };
    servers.push(server);
    return server;
  };
  const stopServer = async (server: Server | null) => {
    if (!server) return;
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGINT');
    await server.exited;
    servers.splice(servers.indexOf(server), 1);
  };
  const stopAll = async () => {
    for (const server of [...servers].reverse()) await stopServer(server);
    await rm(root, { recursive: true, force: true });
  };

  try {
    await asUser('initdb', ['-D', primaryDir, '-U', USER, '--auth=trust', '--no-sync']);
    await start(primaryDir, primaryPort);
    await asUser('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', USER, '-D', replicaDir, '-R', '-X', 'stream', '--no-sync']);
    replica = await start(replicaDir, replicaPort);
  } catch (error) {
    await stopAll();
    throw error;
  }

  const primaryUrl = `postgresql://${USER}@127.0.0.1:${primaryPort}/postgres`;
  const replicaAdmin = `postgresql://${USER}@127.0.0.1:${replicaPort}/postgres`;
  const query = async (url: string, sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };

  return {
    primaryUrl,
    replicaPort,
    replicaUrlOf(primaryDatabaseUrl) {
      const url = new URL(primaryDatabaseUrl);
      url.port = String(replicaPort);
      return url.toString();
    },
    async pauseReplay() {
      await query(replicaAdmin, 'SELECT pg_wal_replay_pause()');
      // Pausing is requested: wait until replay has stopped.
      for (const deadline = Date.now() + WAIT_MS; ; ) {
        const [row] = await query(replicaAdmin, 'SELECT pg_get_wal_replay_pause_state() AS state');
        if (row!['state'] === 'paused') return;
        if (Date.now() > deadline) throw new Error(`the replica's replay did not pause within ${WAIT_MS / 1000} s (${String(row!['state'])})`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async resumeReplay() {
      await query(replicaAdmin, 'SELECT pg_wal_replay_resume()');
    },
    async caughtUp() {
      const [primary] = await query(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
      for (const deadline = Date.now() + WAIT_MS; ; ) {
        const [row] = await query(replicaAdmin, `SELECT pg_last_wal_replay_lsn() >= '${String(primary!['lsn'])}'::pg_lsn AS done`);
        if (row!['done'] === true) return;
        if (Date.now() > deadline) throw new Error(`the replica did not replay up to the primary's ${String(primary!['lsn'])} within ${WAIT_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async stopReplica() {
      await stopServer(replica);
      replica = null;
    },
    async startReplica() {
      if (!replica) replica = await start(replicaDir, replicaPort);
    },
    stop: stopAll,
  };
}
