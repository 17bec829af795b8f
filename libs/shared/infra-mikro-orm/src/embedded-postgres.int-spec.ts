import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { makeTraversable, startEmbeddedPostgres } from './embedded-postgres.js';

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

const launcher = fileURLToPath(new URL('./embedded-postgres.ts', import.meta.url));

/** Another Node process that starts the server on `dataDir` and keeps running until killed. */
async function ownerProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const script = `
    import { startEmbeddedPostgres } from ${JSON.stringify(launcher)};
    const pg = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, database: 'app' });
    console.log('READY ' + pg.url);
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const match = /READY (\S+)/.exec(out);
      if (match) ok(match[1]!);
    });
    child.once('exit', (code) => fail(new Error(`owner process exited early (${code})`)));
  });
  return { child, url };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    child.once('exit', () => ok());
    child.kill('SIGKILL');
  });
}

describe('startEmbeddedPostgres', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rc-embedded-'));
    await makeTraversable(dir);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps data across a stop and a second start, on a port other than 5432', async () => {
    const first = await startEmbeddedPostgres({ dataDir: join(dir, 'keep'), database: 'app' });
    expect(first.port).not.toBe(5432);
    expect(first.owner).toBe(true);
    await query(first.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)');
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir: join(dir, 'keep'), database: 'app' });
    try {
      expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 42 }]);
    } finally {
      await second.stop();
    }
  });

  it('recovers the data folder from a server whose owning process was killed with SIGKILL', async () => {
    const dataDir = join(dir, 'stale');
    const { child, url } = await ownerProcess(dataDir);
    await query(url, 'CREATE TABLE survived (v int); INSERT INTO survived VALUES (7)');
    const stalePid = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    await killed(child);
    expect(() => process.kill(stalePid, 0)).not.toThrow(); // PostgreSQL outlived its owner

    const notices: string[] = [];
    const recovered = await startEmbeddedPostgres({ dataDir, database: 'app', onNotice: (m) => notices.push(m) });
    try {
      expect(recovered.owner).toBe(true);
      expect(() => process.kill(stalePid, 0)).toThrow();
      expect(notices.join('\n')).toMatch(/stale PostgreSQL server/);
      expect(await query(recovered.url, 'SELECT v FROM survived')).toEqual([{ v: 7 }]);
    } finally {
      await recovered.stop();
    }
  });

  it('shares the server of a live owner instead of restarting it, and leaves it running', async () => {
    const dataDir = join(dir, 'shared');
    const { child, url } = await ownerProcess(dataDir);
    try {
      const guest = await startEmbeddedPostgres({ dataDir, database: 'other' });
      expect(guest.owner).toBe(false);
      expect(guest.port).toBe(Number(new URL(url).port));
      await query(guest.url, 'CREATE TABLE t (v int)');
      await guest.stop();
      expect(await query(url, 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    } finally {
      await killed(child);
      await (await startEmbeddedPostgres({ dataDir, database: 'app' })).stop();
    }
  });
});
