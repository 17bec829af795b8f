import pg from 'pg';
import { startReplicatedPostgres, type ReplicatedPostgres } from '@rc/shared-infra-mikro-orm/testing';
import { parseLsn } from '@rc/shared-infra-mikro-orm';
import { KeptAnswers } from '@rc/shared-http';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

const TOKEN = 'x-consistency-token';

/**
 * The API on a real primary and a real streaming replica of it (the system's PostgreSQL, started
 * by the test): GETs read the replica, writes and their writers' next reads the primary, and a
 * replica that stops answering leaves the reads on the primary.
 */
describe('read replicas (DATABASE_REPLICA_URLS) on a real streaming replica', () => {
  let servers: ReplicatedPostgres;
  let api: TestApi;
  let replica: pg.Pool;
  let alice = '';
  let guideId = 0;
  let serial = 0;

  const titleOf = (res: ApiResponse) => (res.body as { guideid: number; title: string }[]).find((g) => g.guideid === guideId)?.title;
  const listed = (options: { token?: string; headers?: Record<string, string> } = {}) => api.request('GET', `/guides?guideids=${guideId}`, options);
  const rename = async (title: string) => {
    const [{ revisionid }] = await api.sql<{ revisionid: number }>('SELECT revisionid FROM guides WHERE id = $1', [guideId]);
    const res = await api.request('PATCH', `/guides/${guideId}?revisionid=${revisionid}`, { token: alice, body: { title } });
    expect(res.status).toBe(200);
    return res;
  };
  const onReplica = async (id: number) => (await replica.query<{ title: string }>('SELECT title FROM guides WHERE id = $1', [id])).rows[0]?.title;
  const paused = async (work: () => Promise<void>) => {
    await servers.pauseReplay();
    try {
      await work();
    } finally {
      await servers.resumeReplay();
      await servers.caughtUp();
    }
  };

  beforeAll(async () => {
    servers = await startReplicatedPostgres();
    api = await startTestApi({}, {}, { url: servers.primaryUrl, env: (url) => ({ DATABASE_REPLICA_URLS: servers.replicaUrlOf(url) }) });
    replica = new pg.Pool({ connectionString: servers.replicaUrlOf(api.db.url), max: 2 });
    // Its idle connections break when the replica stops.
    replica.on('error', () => undefined);
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    const created = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: 'Replicated guide', public: true } });
    expect(created.status).toBe(201);
    guideId = created.body.guideid;
    await servers.caughtUp();
  }, 180_000);

  afterAll(async () => {
    await replica?.end();
    await api?.close();
    await servers?.stop();
  });

  it('answers an anonymous GET from the replica: with its replay paused, the replica\'s older state', async () => {
    await paused(async () => {
      await rename(`Renamed on the primary ${++serial}`);
      // The primary has the new title, the replica (paused) the old one.
      expect(await onReplica(guideId)).toBe('Replicated guide');
      const res = await listed();
      expect(res.status).toBe(200);
      expect(titleOf(res)).toBe('Replicated guide');
      expect(parseLsn(res.headers.get(TOKEN) ?? '')).not.toBeNull();
    });
    // Replay resumed: the replica, and the anonymous read, have caught up.
    expect(titleOf(await listed())).toBe(`Renamed on the primary ${serial}`);
  });

  it("never answers a writer's next read from a replica that has not replayed the write (read-your-writes), by caller or by token", async () => {
    await paused(async () => {
      const write = await rename(`Written by alice ${++serial}`);
      const written = parseLsn(write.headers.get(TOKEN) ?? '');
      expect(written).not.toBeNull();
      expect(await onReplica(guideId)).not.toBe(`Written by alice ${serial}`);

      // The writer's own reads (known by her token in this process) go to the primary.
      expect(titleOf(await listed({ token: alice }))).toBe(`Written by alice ${serial}`);
      const own = await api.request('GET', `/guides/${guideId}`, { token: alice });
      expect(own.body.title).toBe(`Written by alice ${serial}`);
      // Her answers' tokens never go back behind her write.
      expect(parseLsn(own.headers.get(TOKEN)!)! >= written!).toBe(true);

      // Any client sending the write's token back reads at or after it; without it, the replica.
      expect(titleOf(await listed({ headers: { [TOKEN]: write.headers.get(TOKEN)! } }))).toBe(`Written by alice ${serial}`);
      expect(titleOf(await listed())).not.toBe(`Written by alice ${serial}`);
    });
  });

  it('serves kept answers ahead of the route with a replica too: for the stamp of the server the request reads, never older than the token sent back', async () => {
    const served = () => api.running.app.get(KeptAnswers).served;
    /** The same anonymous read twice: the first may build the kept answer, the second is served ahead of the route with the same body. */
    const twice = async (headers: Record<string, string> = {}) => {
      const first = await listed({ headers });
      const before = served();
      const second = await listed({ headers });
      expect(served() - before).toBe(1);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body).toEqual(first.body);
      expect(parseLsn(second.headers.get(TOKEN) ?? '')).not.toBeNull();
      return second;
    };
    const caughtUp = await twice();
    await paused(async () => {
      const write = await rename(`Renamed for the kept answers ${++serial}`);
      const written = parseLsn(write.headers.get(TOKEN)!)!;
      // Without a token: the replica's stamp, so the answer kept for its older state.
      const old = await twice();
      expect(titleOf(old)).toBe(titleOf(caughtUp));
      expect(titleOf(old)).not.toBe(`Renamed for the kept answers ${serial}`);
      // With the write's token: the replica has not replayed it, so the primary's stamp and the answer kept for it.
      const own = await twice({ [TOKEN]: write.headers.get(TOKEN)! });
      expect(titleOf(own)).toBe(`Renamed for the kept answers ${serial}`);
      expect(parseLsn(own.headers.get(TOKEN)!)! >= written).toBe(true);
      // And a client sending back that answer's token never goes back to the replica's older state.
      expect(titleOf(await listed({ headers: { [TOKEN]: own.headers.get(TOKEN)! } }))).toBe(`Renamed for the kept answers ${serial}`);
    });
    // Replay resumed: without a token too, the kept answer for the replica's new stamp.
    expect(titleOf(await twice())).toBe(`Renamed for the kept answers ${serial}`);
  });

  it("gives a signed-in read of a guide, answered from the primary's version, the primary's token: the reader's next reads are never older", async () => {
    const bob = await api.logIn(DEMO_ACCOUNTS.bob.email, DEMO_ACCOUNTS.bob.password);
    await servers.caughtUp();
    await paused(async () => {
      const write = await rename(`Read by bob ${++serial}`);
      expect(await onReplica(guideId)).not.toBe(`Read by bob ${serial}`);
      // Not the writer, no token sent: a list of his is read on the replica, older.
      expect(titleOf(await listed({ token: bob }))).not.toBe(`Read by bob ${serial}`);
      const read = await api.request('GET', `/guides/${guideId}`, { token: bob });
      expect([read.status, read.body.title, read.body.can_edit]).toEqual([200, `Read by bob ${serial}`, false]);
      const token = parseLsn(read.headers.get(TOKEN)!)!;
      expect(token >= parseLsn(write.headers.get(TOKEN)!)!).toBe(true);
      // Sent back, that token keeps him at or after what he was shown.
      expect(titleOf(await listed({ token: bob, headers: { [TOKEN]: read.headers.get(TOKEN)! } }))).toBe(`Read by bob ${serial}`);
    });
  });

  it('lets a user who just signed in read with the new token while the replica has not seen it (tokens are read on the primary)', async () => {
    await paused(async () => {
      const signIn = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body: { email: DEMO_ACCOUNTS.bob.email, password: DEMO_ACCOUNTS.bob.password } });
      expect(signIn.status).toBe(201);
      const tokens = 'SELECT count(*)::int AS n FROM auth_tokens WHERE user_id = $1';
      const [{ n: onPrimary }] = await api.sql<{ n: number }>(tokens, [signIn.body.userid]);
      expect((await replica.query<{ n: number }>(tokens, [signIn.body.userid])).rows[0]!.n).toBe(onPrimary - 1);
      const me = await api.request('GET', '/user', { token: signIn.body.authToken });
      expect(me.status).toBe(200);
      expect(me.body.userid).toBe(signIn.body.userid);
    });
  });

  it('sends every write to the primary, even with the replica paused (a replica refuses writes)', async () => {
    await paused(async () => {
      const res = await api.request('POST', '/guides', { token: alice, body: { category: 'iPhone 12', type: 'repair', title: `Created while paused ${++serial}`, public: true } });
      expect(res.status).toBe(201);
      expect(await api.sql('SELECT title FROM guides WHERE id = $1', [res.body.guideid])).toEqual([{ title: `Created while paused ${serial}` }]);
      expect(await onReplica(res.body.guideid)).toBeUndefined();
    });
  });

  it('shows the replica in readiness and the metrics', async () => {
    const ready = await api.raw('GET', '/api/2.0/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details.replicas).toEqual({ status: 'up', replicas: [expect.objectContaining({ name: `127.0.0.1:${servers.replicaPort}/${new URL(api.db.url).pathname.slice(1)}`, up: true })] });
    const metrics = await api.raw('GET', '/api/2.0/metrics');
    expect(metrics.text).toMatch(new RegExp(`^db_replica_up\\{replica="127\\.0\\.0\\.1:${servers.replicaPort}/[^"]+"\\} 1$`, 'm'));
    expect(metrics.text).toMatch(/^db_replica_lag_bytes\{replica="[^"]+"\} \d+$/m);
  });

  it('keeps answering from the primary when the replica is down (no 500), and goes back to it once it is up', async () => {
    // The pool holds connections to the replica from the earlier reads: they break when it stops.
    expect(titleOf(await listed())).toBe((await api.sql('SELECT title FROM guides WHERE id = $1', [guideId]))[0].title);
    await servers.stopReplica();
    try {
      for (let i = 0; i < 5; i++) {
        const res = await listed();
        expect(res.status).toBe(200);
        expect(titleOf(res)).toBeDefined();
      }
      const write = await rename(`Written with the replica down ${++serial}`);
      expect(titleOf(await listed())).toBe(`Written with the replica down ${serial}`);
      expect(parseLsn(write.headers.get(TOKEN) ?? '')).not.toBeNull();
      const ready = await api.raw('GET', '/api/2.0/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.details.replicas.replicas[0]).toMatchObject({ up: false, problem: expect.any(String) });
    } finally {
      await servers.startReplica();
    }
    await servers.caughtUp();
    // The checks (every second) find it back; then anonymous reads go to it again.
    for (const deadline = Date.now() + 20_000; ; ) {
      const ready = await api.raw('GET', '/api/2.0/health/ready');
      if (ready.body.details.replicas.replicas[0].up === true) break;
      if (Date.now() > deadline) throw new Error('the replica was not found back up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await paused(async () => {
      await rename(`Renamed after the replica came back ${++serial}`);
      expect(titleOf(await listed())).toBe(`Written with the replica down ${serial - 1}`);
    });
  });
});
