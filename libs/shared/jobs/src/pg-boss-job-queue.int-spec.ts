import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@rc/shared-infra-mikro-orm/testing';
import type { JobPayload, JobRun } from '@rc/shared-kernel';
import { PgBossJobQueue, type PgBossJobQueueOptions } from './pg-boss-job-queue.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const workerScript = fileURLToPath(new URL('./testing/worker-process.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

/** Resolves once `check` holds (polling), or fails after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('PgBossJobQueue (PostgreSQL)', () => {
  let db: TestDatabase;
  const started: PgBossJobQueue[] = [];
  const start = async (options: Partial<PgBossJobQueueOptions> = {}) => {
    const queue = await PgBossJobQueue.start({ connectionString: db.url, heartbeatSeconds: 10, superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5, retryDelaySeconds: 1, onError: () => undefined, ...options });
    started.push(queue);
    return queue;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((q) => q.stop(1000)));
  });
  afterAll(() => db.drop());

  it('runs an enqueued job with its payload, once', async () => {
    const queue = await start();
    const runs: [JobPayload, JobRun][] = [];
    await queue.work('test.once', async (payload, run) => {
      runs.push([payload, run]);
    });
    expect(await queue.enqueue({ name: 'test.once', payload: { imageId: 7, version: 1 } })).toBe(true);
    await eventually(() => runs.length === 1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(runs).toEqual([[{ imageId: 7, version: 1 }, { attempt: 1, finalAttempt: false }]]);
    await eventually(async () => (await queue.counts('test.once'))['completed'] === 1);
  });

  it('admits one job per dedupe key while it waits or runs, and a new one once it completed', async () => {
    const queue = await start();
    expect(await queue.enqueue({ name: 'test.dedupe', payload: { n: 1 }, dedupeKey: 'image:1' })).toBe(true);
    expect(await queue.enqueue({ name: 'test.dedupe', payload: { n: 2 }, dedupeKey: 'image:1' })).toBe(false);
    expect(await queue.enqueue({ name: 'test.dedupe', payload: { n: 3 }, dedupeKey: 'image:2' })).toBe(true);
    expect(await queue.enqueue({ name: 'test.dedupe', payload: { n: 4 } })).toBe(true);
    expect(await queue.enqueue({ name: 'test.dedupe', payload: { n: 5 } })).toBe(true);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: unknown[] = [];
    await queue.work('test.dedupe', async (payload) => {
      seen.push(payload['n']);
      if (payload['n'] === 1) await gate;
    }, { concurrency: 4 });
    await eventually(() => seen.includes(1));
    expect(await queue.enqueue({ name: 'test.dedupe', payload: { n: 6 }, dedupeKey: 'image:1' })).toBe(false);
    release();
    await eventually(async () => (await queue.counts('test.dedupe'))['completed'] === 4);
    expect(await queue.enqueue({ name: 'test.dedupe', payload: { n: 7 }, dedupeKey: 'image:1' })).toBe(true);
    await eventually(() => seen.includes(7));
    expect([...seen].sort()).toEqual([1, 3, 4, 5, 7]);
  });

  it('runs a serial queue one job per key at a time, holding one more behind it, each woken at once (no polling interval waited)', async () => {
    // Polling alone would take a minute: only the NOTIFY of a new job, and a worker looking for the
    // next job as soon as it finished one, run these within the test's time.
    const queue = await start({ pollingIntervalSeconds: 60 });
    queue.declare('test.serial', { keys: 'serial', wakeAtOnce: true });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: unknown[] = [];
    let running = 0;
    let most = 0;
    await queue.work('test.serial', async (payload) => {
      running++;
      most = Math.max(most, running);
      seen.push(payload['n']);
      if (payload['n'] === 1) await gate;
      running--;
    }, { concurrency: 3 });
    expect(await queue.enqueue({ name: 'test.serial', payload: { n: 1 }, dedupeKey: 'stream:a' })).toBe(true);
    await eventually(() => seen.includes(1));
    // While the first runs, one more of its key waits (a third is one too many); another key runs meanwhile.
    expect(await queue.enqueue({ name: 'test.serial', payload: { n: 2 }, dedupeKey: 'stream:a' })).toBe(true);
    expect(await queue.enqueue({ name: 'test.serial', payload: { n: 3 }, dedupeKey: 'stream:a' })).toBe(false);
    expect(await queue.enqueue({ name: 'test.serial', payload: { n: 4 }, dedupeKey: 'stream:b' })).toBe(true);
    await eventually(() => seen.includes(4));
    expect(seen).not.toContain(2);
    release();
    await eventually(() => seen.includes(2));
    expect(seen).toEqual([1, 4, 2]);
    expect(most).toBe(2);
    await eventually(async () => (await queue.counts('test.serial'))['completed'] === 3);
    expect(() => queue.declare('test.serial', { keys: 'exclusive' })).toThrow(/already in use/);
  });

  it('retries a failing job with growing delays, telling the handler which attempt is the last', async () => {
    const queue = await start({ retryLimit: 2, retryDelaySeconds: 1 });
    const runs: { at: number; run: JobRun }[] = [];
    await queue.work('test.retry', async (_payload, run) => {
      runs.push({ at: Date.now(), run });
      if (run.attempt < 3) throw new Error(`attempt ${run.attempt} fails`);
    });
    await queue.enqueue({ name: 'test.retry', payload: {} });
    await eventually(async () => (await queue.counts('test.retry'))['completed'] === 1, 30_000);
    expect(runs.map((r) => r.run)).toEqual([
      { attempt: 1, finalAttempt: false },
      { attempt: 2, finalAttempt: false },
      { attempt: 3, finalAttempt: true },
    ]);
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(500);
  }, 40_000);

  it('keeps jobs across a restart: queued while no worker runs, run by an instance started later', async () => {
    const first = await start();
    await first.enqueue({ name: 'test.restart', payload: { n: 1 } });
    await first.stop();
    started.splice(started.indexOf(first), 1);
    const second = await start();
    const seen: unknown[] = [];
    await second.work('test.restart', async (payload) => {
      seen.push(payload['n']);
    });
    await eventually(() => seen.length === 1);
  });

  it('runs a job again, on another instance, when the worker running it is killed', async () => {
    const queue = await start();
    await queue.enqueue({ name: 'test.crash', payload: { imageId: 42 }, dedupeKey: 'image:42' });
    const child = spawn(process.execPath, ['--conditions=@rc/source', '--import', tsx, workerScript, db.url, 'test.crash'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((r) => child.on('exit', r));
    await eventually(() => out.includes('started {"imageId":42} attempt 1'), 30_000);
    child.kill('SIGKILL');
    await exited;
    expect(await queue.enqueue({ name: 'test.crash', payload: { imageId: 42 }, dedupeKey: 'image:42' })).toBe(false);
    const runs: JobRun[] = [];
    await queue.work('test.crash', async (payload, run) => {
      expect(payload).toEqual({ imageId: 42 });
      runs.push(run);
    });
    await eventually(() => runs.length === 1, 40_000);
    expect(runs[0]!.attempt).toBe(2);
    await eventually(async () => (await queue.counts('test.crash'))['completed'] === 1);
  }, 90_000);
});
