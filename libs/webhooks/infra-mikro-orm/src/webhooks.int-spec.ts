import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, schemaDrift, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import type { IntegrationEvent } from '@rc/shared-kernel';
import { FixedClock, RecordingJobQueue } from '@rc/shared-kernel/testing';
import { webhooksMigrations } from './migrations/index.js';
import { DELIVER_JOB, WebhookDispatcher } from './dispatcher.js';
import { MikroOrmDeliveryLog, MikroOrmIntegrationEvents, MikroOrmSubscriptions } from './repositories.js';
import { webhooksSchemas } from './schemas/webhooks.schemas.js';
import { sendWebhook, WebhookAgents } from './sender.js';
import { signWebhook, verifyWebhook } from './signing.js';
import { isPrivateAddress, PublicTargetPolicy } from './targets.js';

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A real HTTP receiver on loopback answering each request with the status `answer` gives. */
async function receiver(answer: () => number = () => 204): Promise<{ url: string; received: Received[]; connections: () => number; close(): Promise<void> }> {
  const received: Received[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answer();
      res.end();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    connections: () => connections,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('Standard Webhooks signatures', () => {
  // The reference test vector of the Standard Webhooks libraries.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it('signs the reference message as the specification does', () => {
    expect(signWebhook(secret, id, timestamp, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verifies one of several signatures, and refuses a changed body, id or timestamp', () => {
    const header = `v1,bm9wZQ== ${signWebhook(secret, id, timestamp, body)}`;
    expect(verifyWebhook(secret, id, timestamp, body, header)).toBe(true);
    expect(verifyWebhook(secret, id, timestamp, '{"test": 2432232315}', header)).toBe(false);
    expect(verifyWebhook(secret, 'msg_other', timestamp, body, header)).toBe(false);
    expect(verifyWebhook(secret, id, timestamp + 1, body, header)).toBe(false);
  });
});

describe('where deliveries may go', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1'])(
    '%s is private',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );

  it.each(['93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => expect(isPrivateAddress(address)).toBe(false));

  it('refuses private and loopback targets (literal addresses in any spelling, localhost), and malformed URLs', async () => {
    const policy = new PublicTargetPolicy(false);
    for (const url of ['http://127.0.0.1:8080/x', 'http://[::1]/x', 'http://0x7f000001/x', 'http://2130706433/x', 'http://localhost/x', 'http://api.localhost/x', 'https://10.0.0.7/']) {
      expect(await policy.check(url)).toEqual({ refusal: expect.stringMatching(/private or loopback|loopback address/) });
    }
    expect(await policy.check('ftp://example.com/')).toEqual({ refusal: 'url must be http or https' });
    expect(await policy.check('https://u:p@example.com/')).toEqual({ refusal: 'url may not carry credentials' });
    expect(await policy.check('not a url')).toEqual({ refusal: 'url is not a valid URL' });
    expect(await policy.check('https://93.184.215.14/in')).toEqual({ url: 'https://93.184.215.14/in' });
    expect(await new PublicTargetPolicy(true).check('http://127.0.0.1:8080/x')).toEqual({ url: 'http://127.0.0.1:8080/x' });
  });

  it('re-checks the resolved address when sending: a name that now resolves to loopback (DNS rebinding) is refused and nothing is sent', async () => {
    const target = await receiver();
    try {
      const port = new URL(target.url).port;
      const rebinding = (_: string, cb: (e: null, a: { address: string; family: number }[]) => void) => cb(null, [{ address: '127.0.0.1', family: 4 }]);
      const viaName = await sendWebhook(`http://hooks.example.com:${port}/hook`, {}, '{}', { timeoutMs: 2000, allowPrivate: false, resolve: rebinding });
      expect(viaName).toEqual({ error: expect.stringMatching(/resolves to 127\.0\.0\.1, which is a private or loopback address/) });
      const literal = await sendWebhook(target.url, {}, '{}', { timeoutMs: 2000, allowPrivate: false });
      expect(literal).toEqual({ error: '127.0.0.1 is a private or loopback address' });
      expect(target.received).toEqual([]);
      // Allowed (tests, closed networks): the loopback receiver gets it.
      expect(await sendWebhook(target.url, {}, '{}', { timeoutMs: 2000, allowPrivate: true })).toEqual({ status: 204 });
      expect(target.received).toHaveLength(1);
    } finally {
      await target.close();
    }
  });

  it('reuses a kept-alive connection for the attempts to one target, and still checks the address of every new connection', async () => {
    const target = await receiver();
    const agents = new WebhookAgents();
    try {
      for (let i = 0; i < 5; i++) expect(await sendWebhook(target.url, {}, `{"n":${i}}`, { timeoutMs: 2000, allowPrivate: true, agents })).toEqual({ status: 204 });
      expect(target.received.map((r) => r.body)).toEqual(['{"n":0}', '{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
      expect(target.connections()).toBe(1);
      // Kept-alive connections do not lift the address rule: a name resolving to loopback is refused.
      const port = new URL(target.url).port;
      let lookups = 0;
      const rebinding = (_: string, cb: (e: null, a: { address: string; family: number }[]) => void) => {
        lookups++;
        cb(null, [{ address: '127.0.0.1', family: 4 }]);
      };
      for (let i = 0; i < 2; i++) {
        const viaName = await sendWebhook(`http://hooks.example.com:${port}/hook`, {}, '{}', { timeoutMs: 2000, allowPrivate: false, resolve: rebinding, agents });
        expect(viaName).toEqual({ error: expect.stringMatching(/resolves to 127\.0\.0\.1, which is a private or loopback address/) });
      }
      expect(lookups).toBe(2);
      expect(target.received).toHaveLength(5);
    } finally {
      agents.destroy();
      await target.close();
    }
  });

  it('sends again on a new connection when the kept-alive one was closed by the target: delivered once, nothing lost', async () => {
    // The target drops the connection of every second request without answering (as a server
    // whose idle timeout fires as a request arrives): the sender retries it once on a new connection.
    let requests = 0;
    const received: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        requests++;
        if (requests % 2 === 0) return void req.socket.destroy();
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agents = new WebhookAgents();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      expect(await sendWebhook(url, {}, 'a', { timeoutMs: 2000, allowPrivate: true, agents })).toEqual({ status: 204 });
      // Reused connection, dropped: sent again on a fresh one, which answers.
      expect(await sendWebhook(url, {}, 'b', { timeoutMs: 2000, allowPrivate: true, agents })).toEqual({ status: 204 });
      expect(received).toEqual(['a', 'b']);
      expect(requests).toBe(3);
    } finally {
      agents.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('gives up on a target that does not answer in time', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const result = await sendWebhook(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, {}, '{}', { timeoutMs: 300, allowPrivate: true });
      expect(result).toEqual({ error: 'no answer within 300 ms' });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('webhook persistence and delivery (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let uow: MikroOrmUnitOfWork;
  let events: MikroOrmIntegrationEvents;
  let subscriptions: MikroOrmSubscriptions;
  let deliveries: MikroOrmDeliveryLog;
  let jobs: RecordingJobQueue;
  let clock: FixedClock;
  let dispatcher: WebhookDispatcher;
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);
  const event = (type: IntegrationEvent['type'], resource: string, n: number): IntegrationEvent => ({ type, resource, data: { n }, at: clock.now() });
  const publish = (...list: IntegrationEvent[]) => inContext(() => uow.run(async () => {
    for (const e of list) await events.publish(e);
  }));

  beforeAll(async () => {
    db = await createTestOrm({ entities: webhooksSchemas, migrations: webhooksMigrations });
    em = db.orm.em as EntityManager;
    uow = new MikroOrmUnitOfWork(em);
    events = new MikroOrmIntegrationEvents(em);
    subscriptions = new MikroOrmSubscriptions(em);
    deliveries = new MikroOrmDeliveryLog(em);
  });
  beforeEach(async () => {
    await db.truncate(webhooksSchemas.map((s) => s.meta.tableName!));
    jobs = new RecordingJobQueue();
    clock = new FixedClock('2026-11-26T10:00:00Z');
    dispatcher = new WebhookDispatcher(em, jobs, clock, { timeoutMs: 2000, allowPrivate: true });
  });
  afterAll(() => db.close());

  it('creates every table and column the schemas map', async () => {
    expect(await schemaDrift(db.orm)).toEqual([]);
  });

  it('writes events in the publisher\'s transaction: a rolled-back change publishes nothing', async () => {
    await inContext(() => subscriptions.create({ url: 'http://127.0.0.1:9/x', events: ['guide.created'], description: '', enabled: true, secret: 'whsec_c2VjcmV0', at: clock.now() }));
    await expect(
      inContext(() => uow.run(async () => {
        await events.publish(event('guide.created', 'guide:1', 1));
        throw new Error('the change failed');
      })),
    ).rejects.toThrow('the change failed');
    expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 0, enqueued: 0 });
    await publish(event('guide.created', 'guide:1', 2));
    expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 1, enqueued: 1 });
  });

  it('fans an event out to the enabled subscriptions that chose it, once however often it sweeps, and enqueues one job per stream', async () => {
    const a = await inContext(() => subscriptions.create({ url: 'http://127.0.0.1:9/a', events: ['guide.created', 'guide.edited'], description: '', enabled: true, secret: 'whsec_YQ==', at: clock.now() }));
    await inContext(() => subscriptions.create({ url: 'http://127.0.0.1:9/b', events: ['wiki.created'], description: '', enabled: true, secret: 'whsec_Yg==', at: clock.now() }));
    await inContext(() => subscriptions.create({ url: 'http://127.0.0.1:9/c', events: ['guide.created'], description: '', enabled: false, secret: 'whsec_Yw==', at: clock.now() }));
    await publish(event('guide.created', 'guide:1', 1), event('guide.edited', 'guide:1', 2), event('guide.created', 'guide:2', 3), event('user.registered', 'user:5', 4));
    // No enabled subscription wants user.registered: it was not even written.
    expect(await db.orm.em.fork().execute(`SELECT type FROM webhook_outbox WHERE type = 'user.registered'`)).toEqual([]);
    expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 3, enqueued: 2 });
    expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 0, enqueued: 0 });
    const listed = await inContext(() => deliveries.list(a.state.id, 10, 0));
    expect(listed.map((d) => [d.eventType, d.resource, d.status])).toEqual([
      ['guide.created', 'guide:2', 'pending'],
      ['guide.edited', 'guide:1', 'pending'],
      ['guide.created', 'guide:1', 'pending'],
    ]);
    expect(jobs.take(DELIVER_JOB).map((j) => j.payload).sort((x, y) => String(x['resource']).localeCompare(String(y['resource'])))).toEqual([
      { subscriptionId: a.state.id, resource: 'guide:1' },
      { subscriptionId: a.state.id, resource: 'guide:2' },
    ]);
  });

  it('delivers a stream in order, signed; a failure holds the later events back until its retry, which the schedule times', async () => {
    let failing = true;
    const target = await receiver(() => (failing ? 503 : 200));
    try {
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      const sub = await inContext(() => subscriptions.create({ url: target.url, events: ['guide.created', 'guide.edited'], description: '', enabled: true, secret, at: clock.now() }));
      await publish(event('guide.created', 'guide:1', 1));
      await publish(event('guide.edited', 'guide:1', 2));
      expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 2, enqueued: 1 });
      jobs.take(DELIVER_JOB); // run below, by hand

      expect(await inContext(() => dispatcher.deliverStream(sub.state.id, 'guide:1'))).toBe(0);
      expect(target.received).toHaveLength(1);
      const [first] = await inContext(() => deliveries.list(sub.state.id, 10, 1));
      expect(first).toMatchObject({ eventType: 'guide.created', status: 'pending', attempts: 1, lastResponseStatus: 503, lastError: 'answered 503' });
      expect(first!.nextAttemptAt).toEqual(new Date(clock.now().getTime() + 5000));
      expect(target.received[0]!.headers['webhook-id']).toBe(first!.messageId);

      // Not due yet: nothing is sent, and the second event waits behind the first.
      failing = false;
      expect(await inContext(() => dispatcher.deliverStream(sub.state.id, 'guide:1'))).toBe(0);
      expect(target.received).toHaveLength(1);
      expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 0, enqueued: 0 });

      clock.advance(5000);
      expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 0, enqueued: 1 });
      expect(await inContext(() => dispatcher.deliverStream(sub.state.id, 'guide:1'))).toBe(2);
      const bodies = target.received.map((r) => JSON.parse(r.body));
      expect(bodies.map((b) => [b.type, b.data.n])).toEqual([
        ['guide.created', 1],
        ['guide.created', 1],
        ['guide.edited', 2],
      ]);
      // The same id and body at every attempt of a delivery; each signature checks out.
      expect(target.received[0]!.headers['webhook-id']).toBe(target.received[1]!.headers['webhook-id']);
      expect(target.received[0]!.body).toBe(target.received[1]!.body);
      for (const r of target.received) {
        expect(r.headers['content-type']).toBe('application/json');
        expect(verifyWebhook(secret, String(r.headers['webhook-id']), Number(r.headers['webhook-timestamp']), r.body, String(r.headers['webhook-signature']))).toBe(true);
      }
      const after = await inContext(() => deliveries.list(sub.state.id, 10, 0));
      expect(after.map((d) => [d.status, d.attempts])).toEqual([
        ['delivered', 1],
        ['delivered', 2],
      ]);
    } finally {
      await target.close();
    }
  });

  it('delivers each stream once while another subscription\'s target fails: that stream waits for its retry, the others are marked delivered in bulk and never sent again', async () => {
    const good = await receiver();
    let failing = true;
    const bad = await receiver(() => (failing ? 503 : 204));
    try {
      const g = await inContext(() => subscriptions.create({ url: good.url, events: ['guide.edited'], description: '', enabled: true, secret: 'whsec_Z29vZA==', at: clock.now() }));
      const b = await inContext(() => subscriptions.create({ url: bad.url, events: ['guide.edited'], description: '', enabled: true, secret: 'whsec_YmFk', at: clock.now() }));
      // 120 events about guide 1 (more than one read of a stream), 5 about guide 2, interleaved at the end.
      const published: IntegrationEvent[] = [];
      for (let n = 1; n <= 125; n++) published.push(event('guide.edited', n > 115 && n % 2 === 0 ? 'guide:2' : 'guide:1', n));
      await publish(...published);
      expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 125, enqueued: 4 });
      const runAll = async () => {
        let delivered = 0;
        for (const job of jobs.take(DELIVER_JOB)) delivered += await inContext(() => dispatcher.deliverStream(Number(job.payload['subscriptionId']), String(job.payload['resource'])));
        return delivered;
      };
      expect(await runAll()).toBe(125);
      const bodies = (r: Received[]) => r.map((x) => JSON.parse(x.body) as { data: { n: number } });
      const ofResource = (r: Received[], resource: string) => bodies(r).map((x) => x.data.n).filter((n) => published[n - 1]!.resource === resource);
      const expected = (resource: string) => published.filter((e) => e.resource === resource).map((e) => e.data['n']);
      expect(ofResource(good.received, 'guide:1')).toEqual(expected('guide:1'));
      expect(ofResource(good.received, 'guide:2')).toEqual(expected('guide:2'));
      expect(new Set(good.received.map((r) => r.headers['webhook-id'])).size).toBe(125);
      // The failing target got each stream's head once; the rest of its streams wait behind them.
      expect(bad.received).toHaveLength(2);
      const states = (subscriptionId: number) =>
        db.orm.em.fork().execute<{ status: string; attempts: number; n: number }[]>(
          `SELECT status, attempts, count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ? GROUP BY status, attempts ORDER BY status, attempts`,
          [subscriptionId],
        );
      expect(await states(g.state.id)).toEqual([{ status: 'delivered', attempts: 1, n: 125 }]);
      expect(await states(b.state.id)).toEqual([
        { status: 'pending', attempts: 0, n: 123 },
        { status: 'pending', attempts: 1, n: 2 },
      ]);

      // Nothing is due before the retry: the good subscription's deliveries are not sent again.
      expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 0, enqueued: 0 });
      clock.advance(5000);
      failing = false;
      expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 0, enqueued: 2 });
      expect(await runAll()).toBe(125);
      expect(good.received).toHaveLength(125);
      expect(ofResource(bad.received.slice(2), 'guide:1')).toEqual(expected('guide:1'));
      expect(ofResource(bad.received.slice(2), 'guide:2')).toEqual(expected('guide:2'));
      // Deduplicated by webhook-id, each delivery exactly once; only the two failed heads came twice.
      expect(new Set(bad.received.map((r) => r.headers['webhook-id'])).size).toBe(125);
      expect(await states(b.state.id)).toEqual([
        { status: 'delivered', attempts: 1, n: 123 },
        { status: 'delivered', attempts: 2, n: 2 },
      ]);
    } finally {
      await good.close();
      await bad.close();
    }
  });

  it('keeps the deliveries sent before a failure in the middle of a stream delivered: after the retry only the rest is sent', async () => {
    let requests = 0;
    const target = await receiver(() => (++requests === 55 ? 500 : 204));
    try {
      const sub = await inContext(() => subscriptions.create({ url: target.url, events: ['wiki.edited'], description: '', enabled: true, secret: 'whsec_c2VjcmV0', at: clock.now() }));
      await publish(...Array.from({ length: 60 }, (_, i) => event('wiki.edited', 'wiki:7', i + 1)));
      await inContext(() => dispatcher.sweep());
      expect(await inContext(() => dispatcher.deliverStream(sub.state.id, 'wiki:7'))).toBe(54);
      const listed = await inContext(() => deliveries.list(sub.state.id, 100, 0));
      expect(listed.filter((d) => d.status === 'delivered')).toHaveLength(54);
      expect(listed[5]).toMatchObject({ status: 'pending', attempts: 1, lastResponseStatus: 500 });
      clock.advance(5000);
      expect(await inContext(() => dispatcher.deliverStream(sub.state.id, 'wiki:7'))).toBe(6);
      const ns = target.received.map((r) => (JSON.parse(r.body) as { data: { n: number } }).data.n);
      expect(ns).toEqual([...Array.from({ length: 55 }, (_, i) => i + 1), 55, 56, 57, 58, 59, 60]);
    } finally {
      await target.close();
    }
  });

  it('enqueues, in a sweep that is not full, only the streams that got new deliveries; a stream waiting for its retry is left to the full sweep', async () => {
    const target = await receiver(() => 503);
    try {
      const sub = await inContext(() => subscriptions.create({ url: target.url, events: ['wiki.edited'], description: '', enabled: true, secret: 'whsec_c2VjcmV0', at: clock.now() }));
      await publish(event('wiki.edited', 'wiki:1', 1));
      expect(await inContext(() => dispatcher.sweep({ full: false }))).toEqual({ fannedOut: 1, enqueued: 1 });
      jobs.take(DELIVER_JOB);
      await inContext(() => dispatcher.deliverStream(sub.state.id, 'wiki:1'));
      clock.advance(5000);
      await publish(event('wiki.edited', 'wiki:2', 2));
      const quick = await inContext(() => dispatcher.sweep({ full: false }));
      expect([quick, jobs.take(DELIVER_JOB).map((j) => j.payload['resource'])]).toEqual([{ fannedOut: 1, enqueued: 1 }, ['wiki:2']]);
      const full = await inContext(() => dispatcher.sweep());
      expect([full, jobs.take(DELIVER_JOB).map((j) => j.payload['resource']).sort()]).toEqual([{ fannedOut: 0, enqueued: 2 }, ['wiki:1', 'wiki:2']]);
    } finally {
      await target.close();
    }
  });

  it('gives a delivery up after the last retry, lets the stream go on, and sends it again when retried by hand', async () => {
    let status = 500;
    const target = await receiver(() => status);
    try {
      const sub = await inContext(() => subscriptions.create({ url: target.url, events: ['badge.awarded'], description: '', enabled: true, secret: 'whsec_c2VjcmV0', at: clock.now() }));
      await publish(event('badge.awarded', 'user:3', 1), event('badge.awarded', 'user:3', 2));
      await inContext(() => dispatcher.sweep());
      for (let attempt = 1; attempt <= 8; attempt++) {
        await inContext(() => dispatcher.deliverStream(sub.state.id, 'user:3'));
        clock.advance(11 * 3600 * 1000);
      }
      // The eighth failure gave the first up; the stream went on to the second, which failed once.
      const listed = await inContext(() => deliveries.list(sub.state.id, 10, 0));
      expect(listed.map((d) => [d.status, d.attempts])).toEqual([
        ['pending', 1],
        ['failed', 8],
      ]);
      status = 200;
      const failed = listed[1]!;
      await inContext(() => uow.run(() => deliveries.retry(sub.state.id, failed.id, clock.now())));
      await inContext(() => dispatcher.deliverStream(sub.state.id, 'user:3'));
      const final = await inContext(() => deliveries.list(sub.state.id, 10, 0));
      expect(final.map((d) => [d.status, d.attempts])).toEqual([
        ['delivered', 2],
        ['delivered', 1],
      ]);
    } finally {
      await target.close();
    }
  });

  it('forgets finished deliveries and their events after the retention, never pending ones', async () => {
    let status = 200;
    const target = await receiver(() => status);
    try {
      const sub = await inContext(() => subscriptions.create({ url: target.url, events: ['wiki.edited', 'wiki.created'], description: '', enabled: true, secret: 'whsec_c2VjcmV0', at: clock.now() }));
      await publish(event('wiki.created', 'wiki:1', 1), event('wiki.edited', 'wiki:2', 2), event('guide.created', 'guide:9', 3));
      await inContext(() => dispatcher.sweep());
      await inContext(() => dispatcher.deliverStream(sub.state.id, 'wiki:1'));
      status = 500;
      await inContext(() => dispatcher.deliverStream(sub.state.id, 'wiki:2'));
      const cutoff = new Date(clock.now().getTime() + 1);
      expect(await inContext(() => dispatcher.prune(cutoff))).toEqual({ deliveries: 1, events: 1 });
      expect((await inContext(() => deliveries.list(sub.state.id, 10, 0))).map((d) => [d.resource, d.status])).toEqual([['wiki:2', 'pending']]);
      expect(await inContext(() => dispatcher.prune(cutoff))).toEqual({ deliveries: 0, events: 0 });
    } finally {
      await target.close();
    }
  });

  it('drops a deleted subscription\'s deliveries and sends nothing for a disabled one (nor enqueues its streams)', async () => {
    const target = await receiver();
    try {
      const sub = await inContext(() => subscriptions.create({ url: target.url, events: ['wiki.edited'], description: '', enabled: true, secret: 'whsec_c2VjcmV0', at: clock.now() }));
      await publish(event('wiki.edited', 'wiki:1', 1));
      await inContext(() => dispatcher.sweep());
      const paused = (await inContext(() => subscriptions.find(sub.state.id)))!;
      paused.change({ enabled: false }, clock.now());
      await inContext(() => subscriptions.save(paused));
      expect(await inContext(() => dispatcher.deliverStream(sub.state.id, 'wiki:1'))).toBe(0);
      expect(target.received).toEqual([]);
      jobs.take();
      expect(await inContext(() => dispatcher.sweep())).toEqual({ fannedOut: 0, enqueued: 0 });
      expect(await inContext(() => subscriptions.delete(sub.state.id))).toBe(true);
      expect(await inContext(() => deliveries.list(sub.state.id, 10, 0))).toEqual([]);
      expect(await inContext(() => subscriptions.delete(sub.state.id))).toBe(false);
    } finally {
      await target.close();
    }
  });
});
