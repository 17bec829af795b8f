import { DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

// The log of a sequence that handles every kind of credential the API knows (a password at
// registration, login and reset, tokens, a reset code, a failed login, a body that does not parse)
// holds none of them, and every line written while a request is handled carries that request's id.

describe('request ids and redaction in the log', () => {
  let api: TestApi;

  beforeAll(async () => {
    // Debug: every line the service can write, not only the request log.
    api = await startTestApi({ LOG_LEVEL: 'debug' });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Lines logged by each request of the sequence, by its request id. */
  const windows = new Map<string, Record<string, unknown>[]>();
  let seen = 0;

  /**
   * One request of the sequence, with its own request id: waits for its request log line (written
   * when the response is done), then keeps every line written since the previous request's.
   */
  async function step(id: string, send: (headers: Record<string, string>) => Promise<ApiResponse>): Promise<ApiResponse> {
    const res = await send({ 'X-Request-Id': id });
    expect(res.headers.get('x-request-id')).toBe(id);
    for (const deadline = Date.now() + 5000; !api.logs.slice(seen).some((l) => l['msg'] === 'request' && l['requestId'] === id); ) {
      if (Date.now() > deadline) throw new Error(`no request log line for ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const end = api.logs.findIndex((l, i) => i >= seen && l['msg'] === 'request' && l['requestId'] === id);
    windows.set(id, api.logs.slice(seen, end + 1));
    seen = end + 1;
    return res;
  }

  it('runs a sequence with passwords, tokens and a reset code, and logs none of them', async () => {
    const email = 'logged-user@example.com';
    const password = 'first-Secret-passphrase-8317';
    const newPassword = 'second-Secret-passphrase-5521';
    const wrongPassword = 'wrong-Secret-passphrase-0042';
    seen = api.logs.length;

    const registered = await step('seq-register', (headers) =>
      api.request('POST', '/users', { appId: DEMO_APP_ID, headers, body: { email, username: 'Logged User', unique_username: 'loggeduser', password } }),
    );
    expect(registered.status).toBe(201);
    const loggedIn = await step('seq-login', (headers) => api.request('POST', '/user/token', { appId: DEMO_APP_ID, headers, body: { email, password } }));
    expect(loggedIn.status).toBe(201);
    const token = loggedIn.body.authToken as string;
    expect((await step('seq-use-token', (headers) => api.request('GET', '/user', { token, headers }))).status).toBe(200);
    // A public route read with a token (the hot path declines it) and one anonymous read (the hot path answers it).
    expect((await step('seq-guide-with-token', (headers) => api.request('GET', '/guides/2', { token, headers }))).status).toBe(200);
    expect((await step('seq-guide-hot-path', (headers) => api.request('GET', '/guides/2', { headers }))).status).toBe(200);
    expect((await step('seq-reset', (headers) => api.request('POST', '/users/reset_password', { headers, body: { email } }))).status).toBe(200);
    const [mail] = await api.sql<{ body: string }>('SELECT body FROM mail_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [email]);
    const code = /^Code: (\S+)$/m.exec(mail!.body)![1]!;
    expect((await step('seq-confirm', (headers) => api.request('POST', '/users/reset_password/confirm', { headers, body: { code, password: newPassword } }))).status).toBe(200);
    expect((await step('seq-failed-login', (headers) => api.request('POST', '/user/token', { appId: DEMO_APP_ID, headers, body: { email, password: wrongPassword } }))).status).toBe(401);
    // A body that does not parse, holding a password.
    expect((await step('seq-bad-json', (headers) => api.request('POST', '/user/token', { appId: DEMO_APP_ID, headers, body: `{"email": "${email}", "password": "${newPassword}"` }))).status).toBe(400);
    const again = await step('seq-login-again', (headers) => api.request('POST', '/user/token', { appId: DEMO_APP_ID, headers, body: { email, password: newPassword } }));
    expect(again.status).toBe(201);

    const log = api.logs.map((line) => JSON.stringify(line)).join('\n');
    const secrets = { password, newPassword, wrongPassword, token, registrationToken: registered.body.authToken as string, newToken: again.body.authToken as string, code };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length).toBeGreaterThan(5);
      expect({ name, found: log.includes(secret) }).toEqual({ name, found: false });
    }

    // Every line written while a request was handled carries that request's id: the request log
    // line, and the others (here the mailer's, a domain adapter's) too.
    expect([...windows.keys()]).toHaveLength(10);
    for (const [id, lines] of windows) {
      expect({ id, ids: lines.map((l) => l['requestId']) }).toEqual({ id, ids: lines.map(() => id) });
    }
    expect(windows.get('seq-reset')).toContainEqual(expect.objectContaining({ msg: 'mail written to the outbox (no SMTP_URL configured)', requestId: 'seq-reset' }));
  });
});
