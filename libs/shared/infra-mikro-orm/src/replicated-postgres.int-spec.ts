import pg from 'pg';
import { startReplicatedPostgres, type ReplicatedPostgres } from './testing/replicated-postgres.js';

async function one(url: string, sql: string): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(sql);
    // A multi-statement query answers a list of results: the last one's first row.
    const last = Array.isArray(result) ? (result as pg.QueryResult[]).at(-1)! : result;
    return last.rows[0] as Record<string, unknown>;
  } finally {
    await client.end();
  }
}

describe('a primary and a streaming replica of the system PostgreSQL (test support)', () => {
  let servers: ReplicatedPostgres;
  beforeAll(async () => {
    servers = await startReplicatedPostgres();
  }, 120_000);
  afterAll(async () => {
    await servers?.stop();
  });

  it('streams the primary\'s writes to the replica, which is read-only and in recovery; paused replay holds it back', async () => {
    const replica = servers.replicaUrlOf(servers.primaryUrl);
    await one(servers.primaryUrl, 'CREATE TABLE t (v int); INSERT INTO t VALUES (1)');
    await servers.caughtUp();
    expect(await one(replica, 'SELECT pg_is_in_recovery() AS r, (SELECT v FROM t) AS v')).toEqual({ r: true, v: 1 });
    await expect(one(replica, 'INSERT INTO t VALUES (2)')).rejects.toThrow(/read-only/);

    await servers.pauseReplay();
    await one(servers.primaryUrl, 'UPDATE t SET v = 2');
    expect(await one(servers.primaryUrl, 'SELECT v FROM t')).toEqual({ v: 2 });
    expect(await one(replica, 'SELECT v FROM t')).toEqual({ v: 1 });
    await servers.resumeReplay();
    await servers.caughtUp();
    expect(await one(replica, 'SELECT v FROM t')).toEqual({ v: 2 });
  });
});
