import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { GuideEvent } from '@rc/guides-contracts';
import { HandleGuideEvent } from '@rc/reputation-domain';
import { InMemoryBadgeCatalogue, InMemoryReputation } from '@rc/reputation-domain/testing';
import { MikroOrmBadgeCatalogue } from '@rc/reputation-infra-mikro-orm';
import { SystemClock } from '@rc/shared-kernel';
import { RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '@rc/shared-infra-mikro-orm';
import { RequestContext } from '@mikro-orm/core';
import { allMigrations, allSchemas } from '../src/composition.js';
import { DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const script = fileURLToPath(new URL('./support/relay-process.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

/** Starts the relay in a child process; resolves with it and a promise of its exit. */
function relayProcess(url: string, batchSize: number, onLine: (line: string, child: ChildProcess) => void = () => undefined) {
  const child = spawn(process.execPath, ['--conditions=@rc/source', '--import', tsx, script, url, String(batchSize)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let buffered = '';
  child.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      onLine(buffered.slice(0, nl), child);
      buffered = buffered.slice(nl + 1);
    }
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, err })));
  return { child, exit };
}

describe('delivery of guide events to reputation (transactional outbox)', () => {
  let api: TestApi;
  const BATCH = 20;

  beforeAll(async () => {
    // Delivery is off in the API: only the relay processes of this test deliver.
    api = await startTestApi({ EVENT_DELIVERY: 'off' });
    const users: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await api.request('POST', '/users', {
        appId: DEMO_APP_ID,
        body: { email: `writer${i}@example.com`, username: `Writer ${i}`, unique_username: `writer${i}`, password: 'writer-password-1' },
      });
      expect(res.status).toBe(201);
      users.push(res.body.authToken);
    }
    const guides: number[] = [];
    for (const [i, token] of users.entries()) {
      for (let g = 0; g < 8; g++) {
        const res = await api.request('POST', '/guides', { token, body: { category: 'iPhone 12', type: g === 0 ? 'teardown' : 'repair', title: `Writer ${i} guide ${g}`, public: true } });
        expect(res.status).toBe(201);
        guides.push(res.body.guideid);
      }
    }
    // Everyone completes and favourites the others' guides; a few are taken back.
    for (const [i, token] of users.entries()) {
      for (const [n, guideid] of guides.entries()) {
        if (Math.floor(n / 8) === i) continue;
        if ((n + i) % 2 === 0) expect((await api.request('PUT', `/guides/${guideid}/completed`, { token, body: {} })).status).toBe(204);
        if ((n + i) % 3 === 0) expect((await api.request('PUT', `/user/favorites/guides/${guideid}`, { token, body: {} })).status).toBe(204);
        if ((n + i) % 10 === 0) expect((await api.request('DELETE', `/guides/${guideid}/completed`, { token })).status).toBe(204);
      }
    }
  }, 120_000);
  afterAll(() => api?.close());

  /** The totals the domain gives when every event is handled exactly once, in order. */
  async function expectedTotals(): Promise<Map<number, number>> {
    const events = await api.sql<{ id: string; payload: GuideEvent }>('SELECT id, payload FROM guide_events_outbox ORDER BY id');
    const orm = await MikroORM.init(ormConfig({ clientUrl: api.db.url, entities: allSchemas, migrations: allMigrations }));
    try {
      const badges = await RequestContext.create(orm.em, () => new MikroOrmBadgeCatalogue(orm.em).enabled());
      const memory = new InMemoryReputation();
      const handle = new HandleGuideEvent(memory, new InMemoryBadgeCatalogue(badges), new SystemClock(), new RecordingIntegrationEvents());
      for (const e of events) await handle.execute(e.id, e.payload);
      return memory.totals;
    } finally {
      await orm.close();
    }
  }

  it('ends with the right totals after the deliverer is killed in the middle of a batch', async () => {
    const [{ n: total }] = await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM guide_events_outbox WHERE delivered_at IS NULL');
    expect(total).toBeGreaterThan(3 * BATCH);

    // Kill the first deliverer (SIGKILL: no cleanup of any kind) halfway through its third batch.
    const killAt = 2 * BATCH + BATCH / 2;
    const first = relayProcess(api.db.url, BATCH, (line, child) => {
      if (line === `handled ${killAt}`) child.kill('SIGKILL');
    });
    const died = await first.exit;
    expect(died.signal).toBe('SIGKILL');

    // Two whole batches committed; the third rolled back with the connection: nothing of it remains.
    const [after] = await api.sql<{ delivered: number; handled: number }>(
      'SELECT (SELECT count(*)::int FROM guide_events_outbox WHERE delivered_at IS NOT NULL) AS delivered, (SELECT count(*)::int FROM reputation_inbox) AS handled',
    );
    expect(after).toEqual({ delivered: 2 * BATCH, handled: 2 * BATCH });

    // A new deliverer finishes the job.
    const second = relayProcess(api.db.url, BATCH);
    const done = await second.exit;
    expect(done).toMatchObject({ code: 0 });
    const [left] = await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM guide_events_outbox WHERE delivered_at IS NULL');
    expect(left!.n).toBe(0);

    // Every total is what exactly-once handling gives, and equals the sum of its ledger entries.
    const expected = await expectedTotals();
    const rows = await api.sql<{ user_id: number; points: number }>('SELECT user_id, points FROM reputation_totals ORDER BY user_id');
    expect(new Map(rows.map((r) => [r.user_id, r.points]))).toEqual(expected);
    expect(expected.size).toBeGreaterThan(3);
    const drift = await api.sql('SELECT t.user_id FROM reputation_totals t JOIN (SELECT user_id, sum(points)::int AS s FROM reputation_ledger GROUP BY user_id) l USING (user_id) WHERE l.s <> t.points');
    expect(drift).toEqual([]);
  }, 120_000);

  it('changes nothing when the same events are delivered again', async () => {
    const before = await api.sql('SELECT user_id, points FROM reputation_totals ORDER BY user_id');
    const [{ n: ledger }] = await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM reputation_ledger');
    // As if the deliveries had never been recorded on the outbox side.
    await api.sql('UPDATE guide_events_outbox SET delivered_at = NULL');
    const again = relayProcess(api.db.url, BATCH);
    expect(await again.exit).toMatchObject({ code: 0 });
    expect(await api.sql('SELECT user_id, points FROM reputation_totals ORDER BY user_id')).toEqual(before);
    expect((await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM reputation_ledger'))[0]!.n).toBe(ledger);
  }, 120_000);
});
