import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

/**
 * What a login runs in PostgreSQL, statement by statement: its CPU besides the password hash is
 * mostly these statements' (see docs/benchmarks.md). A statement added to the path shows here.
 */
describe('POST /user/token runs eight statements', () => {
  let api: TestApi;
  const statements: string[] = [];
  /**
   * Work of other parts of the service that may run meanwhile (webhook and event delivery), and the
   * clean-up of long-expired attempts that one recording in twenty runs (MikroOrmAttemptLog).
   */
  const background = /guide_events_outbox|webhook_|pg_try_advisory_xact_lock|guide_stats|wiki_page_stats|media_|DELETE FROM auth_attempts WHERE at </i;

  beforeAll(async () => {
    api = await startTestApi({}, { onQuery: (sql) => statements.push(sql) });
  });
  afterAll(() => api.close());

  async function statementsOf(body: object): Promise<{ status: number; sql: string[] }> {
    await api.settle();
    const before = statements.length;
    const res = await api.request('POST', '/user/token', { appId: DEMO_APP_ID, body });
    return { status: res.status, sql: statements.slice(before).filter((sql) => !background.test(sql)) };
  }

  const kinds: Array<[string, RegExp]> = [
    ['app id', /FROM app_ids/i],
    ['attempts recorded', /^INSERT INTO auth_attempts/i],
    ['attempts counted', /FROM auth_attempts a WHERE/i],
    ['user by email', /^SELECT \* FROM users WHERE email = \?/i],
    ['token issued', /issue_auth_token\(/i],
    ['attempt forgotten', /^DELETE FROM auth_attempts/i],
    ['reputation', /FROM reputation_totals|reputation_totals t/i],
    ['teams', /FROM team_members m/i],
  ];
  const kindOf = (sql: string) => kinds.find(([, pattern]) => pattern.test(sql.trim()))?.[0] ?? sql.trim().slice(0, 80);

  it('a successful one: no transaction of its own, the token in one statement', async () => {
    const { status, sql } = await statementsOf({ email: DEMO_ACCOUNTS.alice.email, password: DEMO_ACCOUNTS.alice.password });
    expect(status).toBe(201);
    expect(sql.map(kindOf).sort()).toEqual(kinds.map(([kind]) => kind).sort());
  });

  it('an unknown email: the same look-ups up to the password, then nothing written', async () => {
    const { status, sql } = await statementsOf({ email: 'nobody@example.com', password: 'wrong password 123' });
    expect(status).toBe(401);
    expect(sql.map(kindOf).sort()).toEqual(['app id', 'attempts counted', 'attempts recorded', 'user by email']);
  });
});
