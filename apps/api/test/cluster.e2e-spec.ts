import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '@rc/shared-infra-mikro-orm';
import { createTestDatabase, type TestDatabase } from '@rc/shared-infra-mikro-orm/testing';
import { buildApi, ROOT } from './support/built-api.js';

interface LogLine {
  readonly msg?: string;
  readonly pid?: number;
  readonly worker?: number;
  readonly workers?: number;
}

/**
 * The production start with `WEB_CONCURRENCY=2` (`node apps/api/dist/main.js`, built here first:
 * Nest's decorator metadata needs the compiled code): one primary migrates and provisions, two
 * workers share the port, a worker that dies is replaced, and SIGTERM stops everything cleanly.
 */
describe('cluster mode (WEB_CONCURRENCY=2, the built API)', () => {
  let db: TestDatabase;
  let primary: ChildProcess;
  let origin: string;
  const logs: LogLine[] = [];
  let exited: Promise<number | null>;

  async function waitForLog(match: (line: LogLine) => boolean, what: string, ms = 60_000): Promise<LogLine> {
    const until = Date.now() + ms;
    for (;;) {
      const found = logs.find(match);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no log line for ${what}; got: ${JSON.stringify(logs.slice(-10))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    await buildApi();
    db = await createTestDatabase();
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    primary = spawn(process.execPath, ['--max-old-space-size=320', 'apps/api/dist/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'], DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', WEB_CONCURRENCY: '2', LOG_LEVEL: 'debug', NODE_ENV: 'production', EVENT_DELIVERY: 'false', DEMO_DATA: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // 'close', not 'exit': the exit can be reported before the last lines of the output are read.
    exited = new Promise((resolve) => primary.on('close', (code) => resolve(code)));
    let pending = '';
    primary.stdout!.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        try {
          logs.push(JSON.parse(line) as LogLine);
        } catch {
          // Not a log line.
        }
      }
    });
    primary.stderr!.on('data', (chunk: Buffer) => logs.push({ msg: `stderr: ${chunk.toString()}` }));
    await waitForLog((l) => l.msg === 'API ready', 'API ready');
    // The primary says 'API ready' once each worker listens, which it can hear before a worker's own
    // 'worker ready' line is in the output: wait for those lines themselves.
    for (const worker of [0, 1]) await waitForLog((l) => l.msg === 'worker ready' && l.worker === worker, `worker ${worker} ready`);
  }, 180_000);

  afterAll(async () => {
    if (primary && primary.exitCode === null && primary.signalCode === null) {
      primary.kill('SIGKILL');
      await exited;
    }
    await db?.drop();
  });

  const workerPids = () => new Map(logs.filter((l) => l.msg === 'worker ready').map((l) => [l.worker!, l.pid!]));

  it('starts two workers behind one port once the primary has migrated and provisioned', async () => {
    expect((await waitForLog((l) => l.msg === 'API ready', 'API ready')).workers).toBe(2);
    const pids = workerPids();
    expect([...pids.keys()].sort()).toEqual([0, 1]);
    expect(new Set([...pids.values(), primary.pid]).size).toBe(3);
    const guides = await fetch(`${origin}/api/2.0/guides`);
    expect(guides.status).toBe(200);
    expect(((await guides.json()) as unknown[]).length).toBeGreaterThan(0);
  });

  it('replaces a worker that dies; the other answers meanwhile', async () => {
    const before = workerPids().get(1)!;
    process.kill(before, 'SIGKILL');
    // A connection handed to the worker as it died is lost with it (Node's cluster); once the
    // primary has seen the death, every new one goes to the live worker.
    await waitForLog((l) => l.msg === 'worker died: starting another' && l.worker === 1, 'the dead worker');
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${origin}/api/2.0/categories`, { signal: AbortSignal.timeout(5000), headers: { Connection: 'close' } });
      expect(res.status).toBe(200);
    }
    await waitForLog((l) => l.msg === 'worker ready' && l.worker === 1 && l.pid !== before, 'a new worker 1');
    expect((await fetch(`${origin}/api/2.0/guides`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
  });

  it('stops on SIGTERM: workers, then the primary, with exit code 0; the port is closed (a single process too)', async () => {
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Each worker finished its stop, then the primary.
    const stopped = logs.filter((l) => l.msg === 'stopped').map((l) => l.pid);
    expect(stopped).toHaveLength(3);
    expect(stopped.at(-1)).toBe(primary.pid);
    await expect(fetch(`${origin}/api/2.0/guides`)).rejects.toThrow();

    // Without WEB_CONCURRENCY: the same stop (no library's exit hook cuts it short with 143).
    const port = await freePort();
    const single = spawn(process.execPath, ['apps/api/dist/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'], DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production', EVENT_DELIVERY: 'false' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    single.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const singleExit = new Promise<number | null>((resolve) => single.on('close', (code) => resolve(code)));
    for (const until = Date.now() + 60_000; !out.includes('"msg":"API ready"'); ) {
      if (Date.now() > until) throw new Error(`the single process did not start: ${out.slice(-500)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await fetch(`http://127.0.0.1:${port}/api/2.0/guides`)).status).toBe(200);
    single.kill('SIGTERM');
    expect(await singleExit).toBe(0);
    expect(out).toContain('"msg":"stopped"');
  }, 90_000);
});
