import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { makeTraversable } from '@rc/shared-infra-mikro-orm';
import { loadConfig } from '../src/config/config.js';
import { startApi } from '../src/server.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID } from '../src/demo/demo-data.js';

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
