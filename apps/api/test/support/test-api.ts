import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEFAULT_IDENTITY_POLICY } from '@rc/identity-domain';
import { createTestDatabase, type TestDatabase } from '@rc/shared-infra-mikro-orm/testing';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/logger.js';
import { startApi, type RunningApi, type StartOptions } from '../../src/server.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID } from '@rc/demo-data';
import { fromTemplate, templateSettings } from './template-database.js';

export { DEMO_ACCOUNTS, DEMO_APP_ID };

// Response bodies are whatever JSON the server sent: tests read them freely and assert on them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  /** The raw body text. */
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly body: T;
}

export interface RequestOptions {
  /** Sent as JSON; a string is sent as it is (to test malformed bodies). */
  readonly body?: unknown;
  readonly token?: string;
  readonly appId?: string;
  readonly headers?: Record<string, string>;
}

export interface TestApi {
  readonly running: RunningApi;
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  readonly db: TestDatabase;
  /** Every log line the server wrote, parsed. */
  readonly logs: Record<string, unknown>[];
  /** A request under `/api/2.0` (pass a path starting with `/`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** A request to any path of the server (outside the API prefix too). */
  raw(method: string, path: string, init?: RequestInit): Promise<ApiResponse>;
  /** Logs in with the demo app id; returns the token. */
  logIn(email: string, password: string): Promise<string>;
  /**
   * Waits until every guide event written so far has been delivered to reputation (the relay runs
   * after commit, in the background): reputation figures are then stable.
   */
  settle(): Promise<void>;
  /** A direct SQL query on the test database. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  sql<R = any>(text: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/** Cheap argon2id for tests (the production parameters are exercised by the infra tests). */
const TEST_ARGON2 = { memoryCost: 4096, timeCost: 1, parallelism: 1 };

/**
 * Every test registers its accounts from 127.0.0.1: unless a test sets the throttle rules, the
 * registrations per address are not limited in practice (the limit has its own tests).
 */
const TEST_THROTTLE = { ...DEFAULT_IDENTITY_POLICY.throttle, registrationsPerAddress: 100_000 };

/** Another PostgreSQL server than the tests' own, for the test's database (a primary with replicas, say). */
export interface TestServer {
  /** An admin URL of the server: the test's database is created there. */
  readonly url: string;
  /** Configuration variables that depend on the test database's URL (`DATABASE_REPLICA_URLS`, say). */
  readonly env?: (databaseUrl: string) => Record<string, string>;
}

/**
 * The test servers' settings unless a test sets them. No scheduled archive builds: a build would
 * compete with the test for the CPU. No media worker: the demo pictures' sizes would be made in
 * the background during every test, and their statements counted with the requests'. The webhooks'
 * sweeper looks for due deliveries only hourly (a commit's NOTIFY still wakes it): every 10 s it
 * would run its two statements among the requests whose statements tests count. The view counters
 * write what they counted hourly (and at shutdown), for the same reason.
 */
const TEST_DEFAULTS: Record<string, string> = { PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'true', LOG_LEVEL: 'info', ARCHIVE_CHECK_SECONDS: '0', MEDIA_WORKER_CONCURRENCY: '0', WEBHOOK_SWEEP_SECONDS: '3600', VIEW_FLUSH_SECONDS: '3600' };

const cliSource = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const registerTypescript = fileURLToPath(new URL('../../../../libs/archive/http/src/testing/register-typescript.mjs', import.meta.url));

/** A scheduled archive build runs the CLI from its TypeScript sources, with the test server's configuration. */
export const testArchiveBuild = (env: Record<string, string>) => ({ entry: cliSource, execArgv: ['--import', registerTypescript], env: { ...process.env, ...env } });

/**
 * Starts the real API (the production start path) on a database of its own and an ephemeral port.
 * `env` holds configuration variables as an operator would set them.
 */
export async function startTestApi(env: Record<string, string> = {}, options: StartOptions = {}, server?: TestServer): Promise<TestApi> {
  // The demo pictures (and what a test uploads) in a folder of the test's own, unless it names one.
  const mediaDir = env['MEDIA_DIR'] ?? (await mkdtemp(join(tmpdir(), 'rc-e2e-media-')));
  // What the first start writes comes from a template (see template-database.ts), unless the
  // start is about provisioning (or hashes passwords its own way, or provisions nothing), or runs
  // on a server of its own.
  const settings = server || options.identity?.argon2 || options.provision === false ? null : templateSettings(env);
  const db = settings ? await fromTemplate(settings, mediaDir, firstStart) : await createTestDatabase({ serverUrl: server?.url });
  env = { ...env, ...server?.env?.(db.url) };
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({ ...TEST_DEFAULTS, MEDIA_DIR: mediaDir, ...env, DATABASE_URL: db.url });
  // The production logger (request ids, redaction), writing to the test's sink.
  const logger = createLogger(config.logLevel, sink);
  let running: RunningApi;
  try {
    const identity = { argon2: TEST_ARGON2, ...options.identity, policy: { throttle: TEST_THROTTLE, ...options.identity?.policy } };
    const archiveBuild = testArchiveBuild({ ...TEST_DEFAULTS, MEDIA_DIR: mediaDir, ...env, DATABASE_URL: db.url });
    running = await startApi(config, logger, { archiveBuild, ...options, identity });
  } catch (error) {
    await db.drop();
    throw error;
  }
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  // An idle connection the server ends (a test stopping PostgreSQL) is not an error of the test: queries still fail on their own.
  pool.on('error', () => undefined);

  const raw = async (method: string, path: string, init: RequestInit = {}): Promise<ApiResponse> => {
    const res = await fetch(running.url + path, { method, ...init });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body };
  };

  const api: TestApi = {
    running,
    origin: running.url,
    db,
    logs,
    raw,
    request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers['Authorization'] = `api ${options.token}`;
      if (options.appId) headers['X-App-Id'] = options.appId;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['Content-Type'] ??= 'application/json';
      }
      return raw(method, `/api/2.0${path}`, { headers, body });
    },
    async logIn(email, password) {
      const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email, password } });
      if (res.status !== 201) throw new Error(`login of ${email} failed: ${res.status} ${res.text}`);
      return res.body.authToken as string;
    },
    async sql(text, params = []) {
      return (await pool.query(text, params)).rows;
    },
    async settle() {
      if (!config.eventDelivery) return;
      for (const deadline = Date.now() + 20_000; ; ) {
        const [row] = await api.sql<{ pending: number }>('SELECT count(*)::int AS pending FROM guide_events_outbox WHERE delivered_at IS NULL');
        if (row!.pending === 0) return;
        if (Date.now() > deadline) throw new Error(`${row!.pending} guide events still undelivered`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      await pool.end();
      await running.close();
      await db.drop();
      if (!env['MEDIA_DIR']) await rm(mediaDir, { recursive: true, force: true });
    },
  };
  // The demo content's events reach reputation before the tests look at anyone's standing.
  await api.settle();
  return api;
}

/** The first start of a template: the test server's start with these settings, stopped once it is up. */
async function firstStart(db: TestDatabase, mediaDir: string, env: Record<string, string>): Promise<void> {
  const config = loadConfig({ ...TEST_DEFAULTS, ...env, MEDIA_DIR: mediaDir, DATABASE_URL: db.url });
  const running = await startApi(config, createLogger('warn', new Writable({ write: (_chunk, _enc, done) => done() })), {
    identity: { argon2: TEST_ARGON2, policy: { throttle: TEST_THROTTLE } },
  });
  await running.close();
}
