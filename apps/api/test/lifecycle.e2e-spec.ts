import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { freePort, makeTraversable } from '@rc/shared-infra-mikro-orm';
import { loadConfig } from '../src/config/config.js';
import { startApi } from '../src/server.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID } from '@rc/demo-data';
import { buildApi, isAlive, ROOT } from './support/built-api.js';

/** The `npm start` path without DATABASE_URL: embedded PostgreSQL in DATA_DIR, demo data, restart. */
describe('start and stop on the embedded PostgreSQL', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rc-lifecycle-'));
    await makeTraversable(dataDir);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const env = () => ({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
  const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/2.0${path}`, { method: 'POST', headers: { 'X-App-Id': DEMO_APP_ID, ...headers }, body: JSON.stringify(body) });

  it('starts with demo data, keeps what was written across a restart, and does not load the demo data twice', async () => {
    const logs: string[] = [];
    const logger = () => pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });

    const first = await startApi(loadConfig(env()), logger());
    expect(first.database.embedded).toBe(true);
    try {
      const registered = await post(first.url, '/users', { email: 'kept@example.com', username: 'Kept', unique_username: 'kept', password: 'kept-across-restarts' });
      expect(registered.status).toBe(201);
    } finally {
      await first.close();
    }
    expect(logs.filter((l) => l.includes('demo data loaded'))).toHaveLength(1);

    const second = await startApi(loadConfig(env()), logger());
    try {
      expect((await post(second.url, '/user/token', { email: 'kept@example.com', password: 'kept-across-restarts' })).status).toBe(201);
      expect((await post(second.url, '/user/token', { email: DEMO_ACCOUNTS.bob.email, password: DEMO_ACCOUNTS.bob.password })).status).toBe(201);
    } finally {
      await second.close();
    }
    expect(logs.filter((l) => l.includes('demo data loaded'))).toHaveLength(1);
  });

  it('closing lets in-flight requests finish, then refuses new connections', async () => {
    // A slow password hash keeps each request busy well after the close begins: each still needs
    // the database (to store the account) when it ends.
    const slowHash = { argon2: { memoryCost: 65536, timeCost: 4, parallelism: 1 } };
    const api = await startApi(loadConfig({ ...env(), DEMO_DATA: 'false', APP_IDS: DEMO_APP_ID }), pino({ level: 'silent' }), { identity: slowHash });
    const body = { email: 'x@example.com', username: 'X', unique_username: 'inflight', password: 'in-flight-password' };
    let received = 0;
    const allReceived = new Promise<void>((resolve) =>
      api.app.getHttpServer().on('request', () => {
        if (++received === 5) resolve();
      }),
    );
    const inFlight = [0, 1, 2, 3, 4].map((i) => post(api.url, '/users', { ...body, email: `inflight${i}@example.com`, unique_username: `inflight${i}` }));
    await allReceived; // all five are being handled (hashing passwords, writing) when the close begins
    const closed = api.close();
    const statuses = (await Promise.all(inFlight)).map((r) => r.status);
    await closed;
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    await expect(fetch(`${api.url}/api/2.0/user`)).rejects.toThrow();
  });

  it('refuses to start on a bad configuration, naming the variable', () => {
    expect(() => loadConfig({ ...env(), LOG_LEVEL: 'chatty' })).toThrow(/LOG_LEVEL must be one of/);
  });
});

interface LogLine {
  readonly msg?: string;
  readonly pid?: number;
  readonly status?: number;
}

/** `npm start` on an embedded PostgreSQL in a fresh DATA_DIR, in a process group of its own (as a terminal's job). */
class NpmStart {
  readonly lines: LogLine[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly npm: ChildProcess;
  private output = '';
  apiPid = 0;
  postgresPid = 0;

  private constructor(
    readonly dataDir: string,
    readonly url: string,
    workers: number,
  ) {
    this.npm = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true,
      // No DATABASE_URL (the tests' own server): the API embeds its PostgreSQL, as on a fresh clone.
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'] ?? tmpdir(),
        DATA_DIR: dataDir,
        PORT: new URL(url).port,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        DEMO_DATA: 'false',
        APP_IDS: DEMO_APP_ID,
        EVENT_DELIVERY: 'false',
        ARCHIVE_CHECK_SECONDS: '0',
        WEB_CONCURRENCY: String(workers),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) =>
      this.npm.once('exit', (code, signal) => {
        // Its output is read to its end, unless a process it started still holds it (one left behind).
        const exited = () => resolve({ code, signal });
        if (this.npm.stdout!.readableEnded) return exited();
        const leftBehind = setTimeout(exited, 2000);
        this.npm.stdout!.once('end', () => {
          clearTimeout(leftBehind);
          exited();
        });
      }),
    );
    let pending = '';
    this.npm.stdout!.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        this.output += line + '\n';
        try {
          this.lines.push(JSON.parse(line) as LogLine);
        } catch {
          // npm's own lines.
        }
      }
    });
    this.npm.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static async start(workers = 1): Promise<NpmStart> {
    const dataDir = await mkdtemp(join(tmpdir(), 'rc-npm-start-'));
    await makeTraversable(dataDir);
    const run = new NpmStart(dataDir, `http://127.0.0.1:${await freePort()}`, workers);
    const ready = await run.waitFor((l) => l.msg === 'API ready', 'API ready', 90_000);
    run.apiPid = ready.pid!;
    run.postgresPid = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    return run;
  }

  /** The process group: npm and what it started (the API; the embedded PostgreSQL only if it was started in it). */
  get group(): number {
    return this.npm.pid!;
  }

  async waitFor(match: (line: LogLine) => boolean, what: string, ms = 10_000): Promise<LogLine> {
    for (const until = Date.now() + ms; ; ) {
      const found = this.lines.find(match);
      if (found) return found;
      if (Date.now() > until || this.npm.exitCode !== null || this.npm.signalCode !== null) {
        throw new Error(`no log line for ${what}; the output ends with:\n${this.output.slice(-3000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** npm's exit, or an error with the output when it takes longer than `ms`. */
  async exit(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`npm start still running ${ms} ms later; the output ends with:\n${this.output.slice(-3000)}`)), ms);
    });
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whatever is left (after a failure): the group, the API and the PostgreSQL are killed, the data removed. */
  async cleanUp(): Promise<void> {
    for (const pid of [-this.group, this.apiPid]) if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    if (this.postgresPid && isAlive(this.postgresPid)) process.kill(this.postgresPid, 'SIGINT');
    while (this.postgresPid && isAlive(this.postgresPid)) await new Promise((resolve) => setTimeout(resolve, 50));
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * A registration whose headers the server has read (it answered `100 Continue`: the request is in
 * flight) and whose body is sent by `send()`; the handling then needs the database to the end.
 */
function registrationInFlight(url: string, name: string): Promise<{ send(): Promise<number> }> {
  const body = JSON.stringify({ email: `${name}@example.com`, username: name, unique_username: name, password: `${name}-password` });
  return new Promise((inFlight, fail) => {
    const req = request(`${url}/api/2.0/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-App-Id': DEMO_APP_ID, Expect: '100-continue' },
    });
    const status = new Promise<number>((resolve, reject) => {
      req.once('response', (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode!));
      });
      req.once('error', reject);
    });
    status.catch(() => undefined);
    req.once('error', fail);
    req.once('continue', () =>
      inFlight({
        send: () => {
          req.end(body);
          return status;
        },
      }),
    );
    req.flushHeaders();
  });
}

/** How long a stop may take once no request is in flight (PostgreSQL's shutdown checkpoint included). */
const STOP_MS = 3000;

/** The README's promise for `npm start`: Ctrl-C or SIGTERM lets requests finish, stops PostgreSQL last, exits 0. */
describe('npm start stops on a signal (the built API on its embedded PostgreSQL)', () => {
  let run: NpmStart | undefined;

  beforeAll(() => buildApi(), 180_000);
  afterEach(async () => {
    await run?.cleanUp();
    run = undefined;
  });

  const stoppedCleanly = async (url: string, postgresPid: number, dataDir: string) => {
    expect(isAlive(postgresPid)).toBe(false);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    await expect(fetch(`${url}/api/2.0/guides`)).rejects.toThrow();
  };

  it('SIGTERM to the npm process: the API and its PostgreSQL stop, exit code 0 within seconds', async () => {
    run = await NpmStart.start();
    process.kill(run.group, 'SIGTERM');
    expect(await run.exit(STOP_MS)).toEqual({ code: 0, signal: null });
    expect(isAlive(run.apiPid)).toBe(false);
    await stoppedCleanly(run.url, run.postgresPid, run.dataDir);
  }, 120_000);

  // With WEB_CONCURRENCY=2 the workers hear the Ctrl-C too, then their primary's SIGTERM: one stop each.
  it.each([1, 2])("Ctrl-C (SIGINT to the terminal's whole process group), WEB_CONCURRENCY=%i: in-flight requests finish, then PostgreSQL stops; exit code 0", async (workers) => {
    run = await NpmStart.start(workers);
    const started = run;
    const pending = await Promise.all([0, 1, 2, 3, 4].map((i) => registrationInFlight(started.url, `inflight${i}`)));
    process.kill(-run.group, 'SIGINT');
    await run.waitFor((l) => l.msg === 'shutting down: finishing in-flight requests', 'the shutdown');
    // Each request still needs PostgreSQL: to check the username, then to store the account.
    const statuses = await Promise.all(pending.map((p) => p.send()));
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    expect(await run.exit(STOP_MS)).toEqual({ code: 0, signal: null });
    expect(run.lines.filter((l) => l.msg === 'request').map((l) => l.status)).toEqual([201, 201, 201, 201, 201]);
    // Each worker stopped, then the first process (its database last).
    expect(run.lines.filter((l) => l.msg === 'stopped')).toHaveLength(workers === 1 ? 1 : workers + 1);
    expect(run.lines.at(-1)).toMatchObject({ msg: 'stopped', pid: run.apiPid });
    await stoppedCleanly(run.url, run.postgresPid, run.dataDir);
  }, 120_000);
});
