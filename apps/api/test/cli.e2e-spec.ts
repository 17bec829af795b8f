import { pino } from 'pino';
import { createTestDatabase, type TestDatabase } from '@rc/shared-infra-mikro-orm/testing';
import { runCli, type CliIo } from '../src/cli/run-cli.js';
import { loadConfig } from '../src/config/config.js';
import { startApi, type RunningApi } from '../src/server.js';

describe('operator CLI (npm run cli)', () => {
  let db: TestDatabase;

  async function cli(argv: string[], input = ''): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      env: { DATABASE_URL: db.url, LOG_LEVEL: 'silent' },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      readLine: async () => input,
    };
    return { code: await runCli(argv, io), out, err };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('applies migrations, then reports the database up to date', async () => {
    expect(await cli(['migrate'])).toMatchObject({ code: 0, out: [expect.stringMatching(/^applied: .*identity/)] });
    expect(await cli(['migrate'])).toMatchObject({ code: 0, out: ['the database is up to date'] });
  });

  it('creates, lists and revokes app ids', async () => {
    const random = await cli(['app-id:create', '--name', 'Field app']);
    expect(random.code).toBe(0);
    expect(random.out[0]).toMatch(/^[A-Za-z0-9]{16}$/);
    expect((await cli(['app-id:create', '--id', 'kiosk-app'])).out).toEqual(['kiosk-app']);
    expect(await cli(['app-id:create', '--id', 'kiosk-app'])).toMatchObject({ code: 1, err: [expect.stringContaining('already registered')] });

    const list = await cli(['app-id:list']);
    expect(list.out.join('\n')).toMatch(new RegExp(`${random.out[0]}\\tactive\\t.*\\tField app`));
    expect(list.out.join('\n')).toMatch(/kiosk-app\tactive/);

    expect(await cli(['app-id:revoke', 'kiosk-app'])).toMatchObject({ code: 0, out: ['revoked kiosk-app'] });
    expect((await cli(['app-id:list'])).out.join('\n')).toMatch(/kiosk-app\trevoked /);
    expect(await cli(['app-id:revoke', 'no-such-app'])).toMatchObject({ code: 1 });
  });

  it('creates an admin (password from standard input), updates it idempotently, and sets roles', async () => {
    expect(await cli(['user:create-admin', 'ops@example.com'], 'operator-password-1')).toMatchObject({ code: 0, out: [expect.stringMatching(/^created admin ops@example.com \(userid \d+\)$/)] });
    expect(await cli(['user:create-admin', 'ops@example.com', '--password', 'operator-password-2'])).toMatchObject({ code: 0, out: [expect.stringMatching(/^updated admin/)] });
    expect(await cli(['user:set-role', 'ops@example.com', 'User'])).toMatchObject({ code: 0, out: ['ops@example.com is now User'] });
    expect(await cli(['user:set-role', 'ops@example.com', 'Admin'])).toMatchObject({ code: 0, out: ['ops@example.com is now Admin'] });
  });

  it('refuses bad input with a message and a non-zero exit code, writing nothing', async () => {
    expect(await cli(['user:create-admin', 'weak@example.com', '--password', 'short'])).toMatchObject({ code: 1, err: [expect.stringMatching(/^password: .*at least 10/)] });
    expect(await cli(['user:set-role', 'ops@example.com', 'Overlord'])).toMatchObject({ code: 2, err: ['the role must be User or Admin'] });
    expect(await cli(['user:set-role', 'nobody@example.com', 'Admin'])).toMatchObject({ code: 1, err: ['User not found'] });
    expect(await cli(['app-id:revoke'])).toMatchObject({ code: 2, err: ['missing the app id'] });
    expect(await cli(['bogus'])).toMatchObject({ code: 2, err: expect.arrayContaining(["unknown command 'bogus'"]) });
    expect(await cli([])).toMatchObject({ code: 2 });
  });

  it('stops with a clear message on bad configuration', async () => {
    const err: string[] = [];
    const code = await runCli(['app-id:list'], { env: { DATABASE_URL: 'mysql://x', PORT: 'abc' }, out: () => undefined, err: (l) => err.push(l), readLine: async () => '' });
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/PORT must be an integer/);
    expect(err.join('\n')).toMatch(/DATABASE_URL must be a URL/);
  });

  it('what it creates works on the API: the admin logs in with the created app id', async () => {
    await cli(['app-id:create', '--id', 'ops-console']);
    let api: RunningApi | null = null;
    try {
      const config = loadConfig({ DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false' });
      api = await startApi(config, pino({ level: 'silent' }));
      const res = await fetch(`${api.url}/api/2.0/user/token`, {
        method: 'POST',
        headers: { 'X-App-Id': 'ops-console' },
        body: JSON.stringify({ email: 'ops@example.com', password: 'operator-password-2' }),
      });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { privileges: string[] }).privileges).toEqual(['User', 'Admin']);
    } finally {
      await api?.close();
    }
  });
});
