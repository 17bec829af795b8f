import 'reflect-metadata';
import pg from 'pg';
import { pino } from 'pino';
import { createTestDatabase, type TestDatabase } from '@rc/shared-infra-mikro-orm/testing';
import { loadConfig } from '../src/config/config.js';
import { startApi, type RunningApi } from '../src/server.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID } from '@rc/demo-data';

// What a start provisions: the demo content once in the life of a database, whatever else the
// configuration provisions (an admin, app ids), with a log line that says what it did or why not.

const TEST_ARGON2 = { memoryCost: 4096, timeCost: 1, parallelism: 1 };
const ADMIN = { ADMIN_EMAIL: 'ops@example.org', ADMIN_PASSWORD: 'operator-password-long' };

interface Started {
  readonly api: RunningApi;
  readonly logs: Record<string, unknown>[];
}

async function start(db: TestDatabase, env: Record<string, string>): Promise<Started> {
  const logs: Record<string, unknown>[] = [];
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ARCHIVE_CHECK_SECONDS: '0', EVENT_DELIVERY: 'false', ...env, DATABASE_URL: db.url });
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  return { api: await startApi(config, logger, { identity: { argon2: TEST_ARGON2 } }), logs };
}

async function call(api: RunningApi, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${api.url}/api/2.0${path}`, { method, headers: { 'X-App-Id': DEMO_APP_ID }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const logIn = async (api: RunningApi, email: string, password: string) => (await call(api, 'POST', '/user/token', { email, password })).status;
const demoLines = (logs: Record<string, unknown>[]) => logs.filter((l) => typeof l['msg'] === 'string' && (l['msg'] as string).startsWith('demo data'));

async function count(db: TestDatabase, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('first start provisioning', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(() => db.drop());

  it('loads the demo data on a first start with an admin configured, once, and says so in the log', async () => {
    const first = await start(db, { DEMO_DATA: 'true', ...ADMIN });
    try {
      const guides = await call(first.api, 'GET', '/guides');
      expect(guides.status).toBe(200);
      expect((guides.body as unknown[]).length).toBeGreaterThan(0);
      expect(((await call(first.api, 'GET', '/categories')).body as Record<string, unknown>)['Electronics']).toBeDefined();
      // The demo app id exists and the demo accounts log in; so does the configured admin.
      expect(await logIn(first.api, DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password)).toBe(201);
      expect(await logIn(first.api, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).toBe(201);
    } finally {
      await first.api.close();
    }
    expect(demoLines(first.logs)).toEqual([expect.objectContaining({ msg: 'demo data loaded', appId: DEMO_APP_ID, guides: expect.any(Number) })]);
    const guideCount = await count(db, 'guides');

    const second = await start(db, { DEMO_DATA: 'true', ...ADMIN });
    await second.api.close();
    expect(demoLines(second.logs)).toEqual([expect.objectContaining({ msg: 'demo data not loaded', reason: expect.stringMatching(/loaded once already/) })]);
    expect(await count(db, 'guides')).toBe(guideCount);
  });

  it('repairs a database that an earlier start gave only an admin: the next start with demo data loads it', async () => {
    const adminOnly = await start(db, { DEMO_DATA: 'false', ...ADMIN });
    await adminOnly.api.close();
    expect(demoLines(adminOnly.logs)).toEqual([expect.objectContaining({ msg: 'demo data not loaded', reason: expect.stringMatching(/DEMO_DATA is false/) })]);
    expect(await count(db, 'guides')).toBe(0);

    const next = await start(db, { DEMO_DATA: 'true', ...ADMIN });
    try {
      expect(((await call(next.api, 'GET', '/guides')).body as unknown[]).length).toBeGreaterThan(0);
      expect(await logIn(next.api, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).toBe(201);
    } finally {
      await next.api.close();
    }
    expect(demoLines(next.logs)).toEqual([expect.objectContaining({ msg: 'demo data loaded' })]);
  });

  it('never mixes demo content into a database that holds content, and says why', async () => {
    const client = new pg.Client({ connectionString: db.url });
    const empty = await start(db, { DEMO_DATA: 'false', ...ADMIN, APP_IDS: 'ops-app' });
    await empty.api.close();
    // Content written by someone (a wiki page), as a real deployment would have before demo data is asked for.
    await client.connect();
    try {
      await client.query('DELETE FROM provisioning_marks');
    } finally {
      await client.end();
    }
    const withContent = await start(db, { DEMO_DATA: 'false', ...ADMIN, APP_IDS: 'ops-app' });
    try {
      const token = await fetch(`${withContent.api.url}/api/2.0/user/token`, {
        method: 'POST',
        headers: { 'X-App-Id': 'ops-app' },
        body: JSON.stringify({ email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD }),
      }).then((r) => r.json() as Promise<{ authToken: string }>);
      const created = await fetch(`${withContent.api.url}/api/2.0/wikis`, {
        method: 'POST',
        headers: { 'X-App-Id': 'ops-app', Authorization: `api ${token.authToken}` },
        body: JSON.stringify({ namespace: 'CATEGORY', title: 'Real Device', description: 'Written by the operator.', contents: 'Real content.' }),
      });
      expect(created.status).toBe(201);
    } finally {
      await withContent.api.close();
    }

    const demo = await start(db, { DEMO_DATA: 'true', ...ADMIN });
    await demo.api.close();
    expect(demoLines(demo.logs)).toEqual([expect.objectContaining({ msg: 'demo data not loaded', reason: expect.stringMatching(/already holds content \(0 guides, 1 wiki pages\)/) })]);
    expect(await count(db, 'guides')).toBe(0);
    expect(await count(db, 'app_ids WHERE app_id = \'demo-app-id\'')).toBe(0);
  });

  it('lets the configured admin credentials win over the demo admin of the same email', async () => {
    const same = await start(db, { DEMO_DATA: 'true', ADMIN_EMAIL: DEMO_ACCOUNTS.admin.email, ADMIN_PASSWORD: 'the-operators-own-password' });
    try {
      expect(await logIn(same.api, DEMO_ACCOUNTS.admin.email, 'the-operators-own-password')).toBe(201);
      expect(await logIn(same.api, DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password)).toBe(401);
    } finally {
      await same.api.close();
    }
  });

  it('loads the demo data once when two instances start together on a fresh database', async () => {
    const [a, b] = await Promise.all([start(db, { DEMO_DATA: 'true' }), start(db, { DEMO_DATA: 'true' })]);
    await Promise.all([a.api.close(), b.api.close()]);
    const lines = [...demoLines(a.logs), ...demoLines(b.logs)].map((l) => l['msg']).sort();
    expect(lines).toEqual(['demo data loaded', 'demo data not loaded']);
    expect(await count(db, "users WHERE email = 'alice@example.com'")).toBe(1);
  });
});
