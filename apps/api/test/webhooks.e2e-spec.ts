import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@rc/webhooks-infra-mikro-orm';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/logger.js';
import { startApi } from '../src/server.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type TestApi } from './support/test-api.js';

interface Hit {
  readonly id: string;
  readonly timestamp: number;
  readonly signature: string;
  readonly body: string;
}

/**
 * A real HTTP receiver on loopback. `killAt`: on that request it reads the event, then dies before
 * answering (the connection is cut and the server stops listening), and comes back on the same
 * port a moment later: the sender sees no answer, so it sends that event again.
 */
async function receiver(killAt: number) {
  const hits: Hit[] = [];
  let requests = 0;
  let server: Server;
  let port = 0;
  let restarted: Promise<void> = Promise.resolve();
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          requests++;
          hits.push({ id: String(req.headers['webhook-id']), timestamp: Number(req.headers['webhook-timestamp']), signature: String(req.headers['webhook-signature']), body });
          if (requests !== killAt) return void res.writeHead(204).end();
          const dying = server;
          dying.close();
          dying.closeAllConnections();
          restarted = new Promise((resolve) => setTimeout(resolve, 300)).then(listen);
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    url: () => `http://127.0.0.1:${port}/hooks`,
    hits,
    kills: () => (requests >= killAt ? 1 : 0),
    async close() {
      await restarted;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Waits for a condition the background delivery makes true (no timing is asserted). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ALL_EVENTS = ['guide.created', 'guide.edited', 'guide.published', 'guide.unpublished', 'guide.deleted', 'guide.steps_changed', 'wiki.created', 'wiki.edited', 'wiki.deleted', 'comment.created', 'comment.edited', 'comment.deleted', 'user.registered', 'badge.awarded'];

describe('webhooks over HTTP: every event, signed, in order, exactly once after deduplication, through a receiver that dies mid-delivery', () => {
  let api: TestApi;
  let admin: string;
  let target: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    api = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_SWEEP_SECONDS: '1', WEBHOOK_TIMEOUT_SECONDS: '5' });
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    target = await receiver(3);
  });
  afterAll(async () => {
    await target?.close();
    await api?.close();
  });

  it('delivers what guides, pages, registrations and badges publish', async () => {
    const created = await api.request('POST', '/webhooks', { token: admin, body: { url: target.url(), events: ALL_EVENTS, description: 'e2e receiver' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ webhookid: expect.any(Number), url: target.url(), events: ALL_EVENTS, enabled: true, description: 'e2e receiver', secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/) });
    const { webhookid, secret } = created.body;
    // The secret is shown once.
    expect((await api.request('GET', `/webhooks/${webhookid}`, { token: admin })).body.secret).toBeUndefined();
    expect((await api.request('GET', '/webhooks', { token: admin })).body).toEqual([expect.objectContaining({ webhookid, events: ALL_EVENTS })]);
    // Events committed before the subscription existed and already dispatched are not sent to it.
    await api.settle();

    // A user registers, writes a guide, edits it, adds a step, publishes, unpublishes and deletes it.
    const registered = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: { email: 'hooked@example.com', username: 'Hooked', unique_username: 'hooked', password: 'hooked-password-1' } });
    expect(registered.status).toBe(201);
    const userid: number = registered.body.userid;
    const token: string = registered.body.authToken;
    let guide = await api.request('POST', '/guides', { token, body: { category: 'iPhone 12', type: 'repair', title: 'Hooked guide', public: false } });
    expect(guide.status).toBe(201);
    const guideid: number = guide.body.guideid;
    guide = await api.request('PATCH', `/guides/${guideid}?revisionid=${guide.body.revisionid}`, { token, body: { title: 'Hooked guide, edited' } });
    expect(guide.status).toBe(200);
    expect((await api.request('POST', `/guides/${guideid}/steps`, { token, body: { lines: [{ text: 'Open it', bullet: 'black', level: 0 }] } })).status).toBe(201);
    const revision = async () => (await api.request('GET', `/guides/${guideid}`, { token })).body.revisionid as number;
    expect((await api.request('PUT', `/guides/${guideid}/public?revisionid=${await revision()}`, { token })).status).toBe(200);
    await api.settle(); // reputation hears of the publication (and may award badges)
    // Someone comments on it, edits the comment, and deletes it.
    const alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
    const comment = await api.request('POST', `/comments/guide/${guideid}`, { token: alice, body: { text: 'Which screwdriver?' } });
    expect(comment.status).toBe(201);
    const commentid: number = comment.body.commentid;
    expect((await api.request('PATCH', `/comments/${commentid}`, { token: alice, body: { text: 'Which driver?' } })).status).toBe(200);
    expect((await api.request('DELETE', `/comments/${commentid}`, { token: alice })).status).toBe(204);
    expect((await api.request('DELETE', `/guides/${guideid}/public?revisionid=${await revision()}`, { token })).status).toBe(200);
    expect((await api.request('DELETE', `/guides/${guideid}?revisionid=${await revision()}`, { token })).status).toBe(204);
    // An admin writes a page, edits it and deletes it.
    const page = await api.request('POST', '/wikis', { token: admin, body: { namespace: 'WIKI', title: 'Hooked page', contents: 'First' } });
    expect(page.status).toBe(201);
    const edited = await api.request('PATCH', `/wikis/WIKI/Hooked%20page?revisionid=${page.body.revisionid}`, { token: admin, body: { contents: 'Second' } });
    expect(edited.status).toBe(200);
    expect((await api.request('DELETE', `/wikis/WIKI/Hooked%20page?revisionid=${edited.body.revisionid}`, { token: admin })).status).toBe(204);
    await api.settle();

    // Every delivery of the subscription ends delivered; the receiver died once on the way.
    const deliveries = async () => (await api.request('GET', `/webhooks/${webhookid}/deliveries?limit=100`, { token: admin })).body as { deliveryid: number; webhook_id: string; event: string; resource: string; status: string; attempts: number }[];
    await eventually(async () => {
      const list = await deliveries();
      return list.length > 0 && list.every((d) => d.status === 'delivered') && list.some((d) => d.event === 'wiki.deleted');
    }, 'every delivery to be delivered');
    expect(target.kills()).toBe(1);
    const list = await deliveries();

    // Deduplicated by webhook-id: each delivery exactly once, and nothing else.
    const unique = new Map<string, Hit>();
    for (const hit of target.hits) if (!unique.has(hit.id)) unique.set(hit.id, hit);
    expect(target.hits.length).toBeGreaterThan(unique.size); // the event in flight at the kill came twice
    expect([...unique.keys()].sort()).toEqual(list.map((d) => d.webhook_id).sort());
    // Every copy is signed with the subscription's secret, and a repeat is byte for byte the same.
    for (const hit of target.hits) {
      expect(verifyWebhook(secret, hit.id, hit.timestamp, hit.body, hit.signature)).toBe(true);
      expect(hit.body).toBe(unique.get(hit.id)!.body);
    }

    const events = [...unique.values()].map((h) => JSON.parse(h.body) as { type: string; timestamp: string; data: Record<string, unknown> });
    const ofGuide = events.filter((e) => e.data['guideid'] === guideid && e.type.startsWith('guide.')).map((e) => e.type);
    // Received in the order they were published (per resource).
    expect(ofGuide).toEqual(['guide.created', 'guide.edited', 'guide.steps_changed', 'guide.published', 'guide.unpublished', 'guide.deleted']);
    const ofComment = events.filter((e) => e.data['commentid'] === commentid).map((e) => [e.type, e.data['guideid']]);
    expect(ofComment).toEqual([
      ['comment.created', guideid],
      ['comment.edited', guideid],
      ['comment.deleted', guideid],
    ]);
    const ofPage = events.filter((e) => e.type.startsWith('wiki.') && e.data['title'] === 'Hooked page').map((e) => e.type);
    expect(ofPage).toEqual(['wiki.created', 'wiki.edited', 'wiki.deleted']);
    expect(events.filter((e) => e.type === 'user.registered' && e.data['userid'] === userid)).toEqual([{ type: 'user.registered', timestamp: expect.any(String), data: { userid, unique_username: 'hooked' } }]);
    const awards = await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM badge_awards WHERE user_id = $1', [userid]);
    expect(events.filter((e) => e.type === 'badge.awarded' && e.data['userid'] === userid)).toHaveLength(awards[0]!.n);
    expect(awards[0]!.n).toBeGreaterThan(0);

    // A delivery sent again by hand comes with the same id (the receiver drops it as a repeat).
    const again = list.find((d) => d.event === 'user.registered')!;
    const retried = await api.request('POST', `/webhooks/${webhookid}/deliveries/${again.deliveryid}/retry`, { token: admin });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ deliveryid: again.deliveryid, webhook_id: again.webhook_id, status: 'pending', attempts: 0 });
    const before = target.hits.filter((h) => h.id === again.webhook_id).length;
    await eventually(async () => target.hits.filter((h) => h.id === again.webhook_id).length > before, 'the retried delivery');
    await eventually(async () => (await deliveries()).find((d) => d.deliveryid === again.deliveryid)!.status === 'delivered', 'the retry to be recorded');
  }, 120_000);
});

describe('webhooks over HTTP: who may, and what is refused', () => {
  let api: TestApi;
  let admin: string;
  let alice: string;

  beforeAll(async () => {
    // The default policy: private and loopback targets are refused.
    api = await startTestApi();
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
  });
  afterAll(() => api?.close());

  const good = { url: 'https://93.184.215.14/hooks', events: ['guide.published'] };

  it('asks for a token (401) and an Admin (403) on every route', async () => {
    const created = await api.request('POST', '/webhooks', { token: admin, body: good });
    expect(created.status).toBe(201);
    const id = created.body.webhookid;
    const routes: [string, string, unknown?][] = [
      ['POST', '/webhooks', good],
      ['GET', '/webhooks'],
      ['GET', `/webhooks/${id}`],
      ['PATCH', `/webhooks/${id}`, { enabled: false }],
      ['DELETE', `/webhooks/${id}`],
      ['GET', `/webhooks/${id}/deliveries`],
      ['POST', `/webhooks/${id}/deliveries/1/retry`],
    ];
    for (const [method, path, body] of routes) {
      const anonymous = await api.request(method, path, { body });
      expect([method, path, anonymous.status, anonymous.body.error]).toEqual([method, path, 401, true]);
      const user = await api.request(method, path, { token: alice, body });
      expect([method, path, user.status, user.body.requiredPrivileges]).toEqual([method, path, 403, ['Admin']]);
    }
    expect((await api.request('GET', `/webhooks/${id}`, { token: admin })).body.enabled).toBe(true);
  });

  it('answers 404 for unknown subscriptions and deliveries', async () => {
    const id = (await api.request('POST', '/webhooks', { token: admin, body: good })).body.webhookid;
    for (const [method, path, body] of [
      ['GET', '/webhooks/999999'],
      ['GET', '/webhooks/abc'],
      ['PATCH', '/webhooks/999999', { enabled: false }],
      ['DELETE', '/webhooks/999999'],
      ['GET', '/webhooks/999999/deliveries'],
      ['POST', '/webhooks/999999/deliveries/1/retry'],
      ['POST', `/webhooks/${id}/deliveries/999999/retry`],
      ['POST', `/webhooks/${id}/deliveries/abc/retry`],
    ] as [string, string, unknown?][]) {
      const res = await api.request(method, path, { token: admin, body });
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 404, true]);
    }
    expect((await api.request('DELETE', `/webhooks/${id}`, { token: admin })).status).toBe(204);
    expect((await api.request('GET', `/webhooks/${id}`, { token: admin })).status).toBe(404);
  });

  it.each([
    [{ url: 'http://127.0.0.1:8080/hooks', events: ['guide.published'] }, 'url', /private or loopback/],
    [{ url: 'http://localhost/hooks', events: ['guide.published'] }, 'url', /loopback/],
    [{ url: 'http://[::1]/hooks', events: ['guide.published'] }, 'url', /private or loopback/],
    [{ url: 'http://169.254.169.254/latest/meta-data', events: ['guide.published'] }, 'url', /private or loopback/],
    [{ url: 'http://10.0.0.8/hooks', events: ['guide.published'] }, 'url', /private or loopback/],
    [{ url: 'ftp://example.com/hooks', events: ['guide.published'] }, 'url', /http or https/],
    [{ url: 'not a url', events: ['guide.published'] }, 'url', /not a valid URL/],
    [{ events: ['guide.published'] }, 'url', /required/],
    [{ url: 'https://93.184.215.14/hooks', events: ['guide.exploded'] }, 'events', /unknown event: guide.exploded/],
    [{ url: 'https://93.184.215.14/hooks', events: [] }, 'events', /non-empty/],
    [{ url: 'https://93.184.215.14/hooks', events: ['guide.published'], enabled: 'yes' }, 'enabled', /true or false/],
    [{ url: 'https://93.184.215.14/hooks', events: ['guide.published'], secret: 'mine' }, 'secret', /Unknown field/],
  ])('refuses %j with 422 (%s), writing nothing', async (body, field, message) => {
    const before = (await api.request('GET', '/webhooks', { token: admin })).body.length;
    const res = await api.request('POST', '/webhooks', { token: admin, body });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: true, errors: [{ field, message: expect.stringMatching(message) }] });
    expect((await api.request('GET', '/webhooks', { token: admin })).body).toHaveLength(before);
  });

  it('refuses a change to a private target or an unknown event (422), leaving the subscription as it was', async () => {
    const id = (await api.request('POST', '/webhooks', { token: admin, body: good })).body.webhookid;
    for (const body of [{ url: 'http://127.0.0.1/x' }, { events: ['nope'] }, { url: 'https://93.184.215.14/other', events: ['nope'] }]) {
      const res = await api.request('PATCH', `/webhooks/${id}`, { token: admin, body });
      expect(res.status).toBe(422);
    }
    expect((await api.request('GET', `/webhooks/${id}`, { token: admin })).body).toMatchObject(good);
    const changed = await api.request('PATCH', `/webhooks/${id}`, { token: admin, body: { events: ['wiki.created', 'guide.published'], enabled: false } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ url: good.url, events: ['guide.published', 'wiki.created'], enabled: false });
  });
});

describe('webhooks over HTTP: a restart of the API loses nothing', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_SWEEP_SECONDS: '1' });
  });
  afterAll(() => api?.close());

  it('sends after a restart what was pending when the API stopped (the receiver was down until then)', async () => {
    // A port nothing listens on yet: the receiver starts once the first API has stopped.
    const target = await receiver(0);
    const url = target.url();
    await target.close();
    const admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const created = await api.request('POST', '/webhooks', { token: admin, body: { url, events: ['wiki.created'] } });
    expect(created.status).toBe(201);
    const { webhookid } = created.body;
    expect((await api.request('POST', '/wikis', { token: admin, body: { namespace: 'WIKI', title: 'Survives restarts', contents: 'x' } })).status).toBe(201);
    const delivery = async () => (await api.sql<{ status: string; attempts: number; webhook_id: string }>('SELECT status, attempts, message_id AS webhook_id FROM webhook_deliveries WHERE subscription_id = $1', [webhookid]))[0];
    await eventually(async () => (await delivery())?.attempts === 1, 'the first, failed attempt');
    expect(await delivery()).toMatchObject({ status: 'pending' });
    await api.running.close();

    // The receiver comes up on the same port, then a new API process starts on the same database.
    const back = await receiverOn(Number(new URL(url).port));
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ARCHIVE_CHECK_SECONDS: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_SWEEP_SECONDS: '1', DATABASE_URL: api.db.url });
    const restarted = await startApi(config, createLogger('silent'));
    try {
      await eventually(async () => (await delivery())?.status === 'delivered', 'the delivery after the restart');
      const { webhook_id } = (await delivery())!;
      expect(back.hits.map((h) => h.id)).toEqual([webhook_id]);
      expect(JSON.parse(back.hits[0]!.body)).toMatchObject({ type: 'wiki.created', data: { title: 'Survives restarts' } });
    } finally {
      await restarted.close();
      await back.close();
    }
  }, 60_000);
});

/** A receiver that answers 204 to everything, on a given port. */
async function receiverOn(port: number) {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ id: String(req.headers['webhook-id']), timestamp: Number(req.headers['webhook-timestamp']), signature: String(req.headers['webhook-signature']), body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
