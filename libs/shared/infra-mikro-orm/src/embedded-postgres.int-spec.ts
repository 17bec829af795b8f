import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('startEmbeddedPostgres', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rc-embedded-'));
    await makeTraversable(dir);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps data across a stop and a second start, on a new port', async () => {
    const first = await startEmbeddedPostgres({ dataDir: join(dir, 'keep'), database: 'app' });
    expect(first.port).not.toBe(5432);
    await query(first.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)');
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir: join(dir, 'keep'), database: 'app' });
    try {
      expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 42 }]);
    } finally {
      await second.stop();
    }
  });

  it('recovers the data folder from a server whose owning process was killed', async () => {
    const dataDir = join(dir, 'stale');
    const first = await startEmbeddedPostgres({ dataDir, database: 'app' });
    await query(first.url, 'CREATE TABLE survived (v int); INSERT INTO survived VALUES (7)');
    const stalePid = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    // Drop the handle without stopping, as a SIGKILLed process would: the server keeps running
    // and holds the data folder.
    expect(() => process.kill(stalePid, 0)).not.toThrow();

    const second = await startEmbeddedPostgres({ dataDir, database: 'app' });
    try {
      expect(() => process.kill(stalePid, 0)).toThrow();
      expect(await query(second.url, 'SELECT v FROM survived')).toEqual([{ v: 7 }]);
    } finally {
      await second.stop();
    }
  });
});
