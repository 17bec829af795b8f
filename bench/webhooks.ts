// The webhook figures of `npm run bench`: the deliveries per second of the API's whole pipeline
// (a write commits its event in the outbox, the sweeper fans it out, a job signs and POSTs it)
// to a receiver on loopback that checks every signature, and how long each edit's event took to
// arrive after the edit was answered; then the deliveries per second of a backlog (as many events
// committed to the outbox at once, so the edits' own pace does not bound the figure); both against
// the same receiver fed the same number of signed messages of the same size straight from a plain
// HTTP client, with as many at once as the API's delivery workers (the limit of delivering them).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { BENCH_APP_ID, BENCH_PASSWORD, writerEmail } from './generate.js';

/** Events produced (one guide edit each). */
const EVENTS = 600;
/** Writers at once. */
const WRITERS = 8;
/** The API's delivery workers (WEBHOOK_WORKER_CONCURRENCY's default): the reference client sends as many at once. */
const DELIVERY_CONCURRENCY = 4;

export interface WebhookFigures {
  readonly events: number;
  /** Edits per second while they were written (the events' arrival rate). */
  readonly writesPerSecond: number;
  /** Deliveries per second from the first write to the last delivery. */
  readonly apiDeliveriesPerSecond: number;
  /** Seconds from the last write's answer to the last delivery: the backlog the pipeline had left. */
  readonly drainSeconds: number;
  /** From an edit's answer to its event's arrival at the receiver, over the edits (ms). */
  readonly latencyP50Ms: number;
  readonly latencyP95Ms: number;
  readonly latencyMaxMs: number;
  /** Deliveries per second of `events` events committed to the outbox in one transaction, from the commit to the last delivery. */
  readonly backlogDeliveriesPerSecond: number;
  /** The backlog's deliveries per second over the reference's. */
  readonly backlogRatio: number;
  readonly referenceDeliveriesPerSecond: number;
  /** API deliveries per second over the reference's (1 = the limit of delivering). */
  readonly ratio: number;
  readonly duplicates: number;
  readonly badSignatures: number;
}

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's key. */
function sign(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** A receiver on loopback: checks each message's signature, counts distinct message ids. */
class Receiver {
  secret = '';
  readonly ids = new Set<string>();
  duplicates = 0;
  badSignatures = 0;
  bytes = 0;
  lastAt = 0;
  /** When each event arrived first, by `<guideid>:<revisionid>` of its data. */
  readonly arrivals = new Map<string, number>();
  private waiter: { count: number; resolve: () => void } | null = null;
  private readonly server = createServer((req, res) => void this.receive(req, res));

  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  reset(secret: string): void {
    this.secret = secret;
    this.ids.clear();
    this.arrivals.clear();
    this.duplicates = this.badSignatures = this.bytes = 0;
  }

  /** Resolves once `count` distinct messages arrived. */
  until(count: number, timeoutMs: number): Promise<void> {
    if (this.ids.size >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.ids.size} of ${count} webhook messages arrived within ${timeoutMs / 1000} s`)), timeoutMs);
      this.waiter = { count, resolve: () => (clearTimeout(timer), resolve()) };
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const id = String(req.headers['webhook-id'] ?? '');
    const expected = Buffer.from(sign(this.secret, id, String(req.headers['webhook-timestamp'] ?? ''), body));
    const valid = String(req.headers['webhook-signature'] ?? '')
      .split(' ')
      .some((given) => given.length === expected.length && timingSafeEqual(Buffer.from(given), expected));
    if (!valid) this.badSignatures++;
    else if (this.ids.has(id)) this.duplicates++;
    else {
      this.ids.add(id);
      this.bytes += body.length;
      this.lastAt = performance.now();
      const data = (JSON.parse(body) as { data?: { guideid?: number; revisionid?: number } }).data;
      if (data?.guideid !== undefined) this.arrivals.set(`${data.guideid}:${data.revisionid}`, this.lastAt);
    }
    res.writeHead(204).end();
    if (this.waiter && this.ids.size >= this.waiter.count) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve();
    }
  }
}

async function call(origin: string, method: string, path: string, init: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'X-App-Id': BENCH_APP_ID };
  if (init.token) headers['Authorization'] = `api ${init.token}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${origin}/api/2.0${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export async function measureWebhooks(origin: string, db: pg.Pool, log: (line: string) => void): Promise<WebhookFigures> {
  const receiver = new Receiver();
  const url = await receiver.listen();
  try {
    const login = await call(origin, 'POST', '/user/token', { body: { email: writerEmail(0), password: BENCH_PASSWORD } });
    if (login.status !== 201) throw new Error(`webhooks: login failed (${login.status})`);
    const token = String(login.body['authToken']);
    const created = await call(origin, 'POST', '/webhooks', { token, body: { url, events: ['guide.edited'], description: 'npm run bench' } });
    if (created.status !== 201) throw new Error(`webhooks: the subscription was refused (${created.status} ${JSON.stringify(created.body)}): the bench API runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true`);
    receiver.reset(String(created.body['secret']));
    try {
      // Guides of their own for each writer (no revision conflicts), none a prerequisite of another.
      const { rows } = await db.query<{ id: number; revisionid: number }>(
        `SELECT id, revisionid FROM guides WHERE is_public AND deleted_at IS NULL AND cardinality(prerequisites) = 0
          AND NOT EXISTS (SELECT 1 FROM guides d WHERE d.prerequisites @> ARRAY[guides.id]) ORDER BY id DESC LIMIT $1`,
        [WRITERS * 4],
      );
      const revision = new Map(rows.map((r) => [r.id, r.revisionid]));
      const answered = new Map<string, number>();
      const run = Date.now().toString(36);
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          const own = rows.filter((_, i) => i % WRITERS === w).map((r) => r.id);
          for (let n = next++; n < EVENTS; n = next++) {
            const id = own[n % own.length]!;
            const res = await call(origin, 'PATCH', `/guides/${id}?revisionid=${revision.get(id)}`, { token, body: { summary: `Webhook bench ${run} ${n}` } });
            if (res.status !== 200) throw new Error(`webhooks: an edit failed (${res.status} ${JSON.stringify(res.body).slice(0, 200)})`);
            revision.set(id, Number(res.body['revisionid']));
            answered.set(`${id}:${String(res.body['revisionid'])}`, performance.now());
          }
        }),
      );
      const written = performance.now();
      await receiver.until(EVENTS, 300_000);
      const lastDelivered = receiver.lastAt;
      const apiSeconds = (lastDelivered - started) / 1000;
      let duplicates = receiver.duplicates;
      let badSignatures = receiver.badSignatures;
      const meanBytes = Math.max(1, Math.round(receiver.bytes / receiver.ids.size));
      log(`  webhooks: ${EVENTS} edits in ${((written - started) / 1000).toFixed(1)} s, every message delivered ${apiSeconds.toFixed(1)} s after the first edit`);
      const latencies = [...answered].map(([key, at]) => Math.max(0, (receiver.arrivals.get(key) ?? Number.NaN) - at)).sort((a, b) => a - b);
      if (latencies.some((l) => Number.isNaN(l))) throw new Error('webhooks: an edit\'s event did not arrive with its guide and revision');
      const percentile = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]! * 10) / 10;

      // A backlog: as many events about the same guides committed to the outbox in one
      // transaction (as the API writes them), timed from the commit to the last delivery.
      receiver.reset(receiver.secret);
      const client = await db.connect();
      let backlogSeconds: number;
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO webhook_outbox (type, resource, body, created_at)
           SELECT 'guide.edited', 'guide:' || g.id, json_build_object('type', 'guide.edited', 'timestamp', now(), 'data',
                    json_build_object('guideid', g.id, 'revisionid', -n, 'userid', 1, 'public', true))::text, now()
           FROM generate_series(1, $1) AS n JOIN LATERAL (SELECT ($2::int[])[1 + n % cardinality($2::int[])] AS id) g ON true ORDER BY n`,
          [EVENTS, rows.map((r) => r.id)],
        );
        const committing = performance.now();
        await client.query('COMMIT');
        await receiver.until(EVENTS, 300_000);
        backlogSeconds = (receiver.lastAt - committing) / 1000;
        duplicates += receiver.duplicates;
        badSignatures += receiver.badSignatures;
      } finally {
        client.release();
      }
      log(`  webhooks: a backlog of ${EVENTS} events delivered ${backlogSeconds.toFixed(2)} s after its commit`);

      // The reference: as many signed messages of the same size, straight to the same receiver.
      const secret = receiver.secret;
      receiver.reset(secret);
      const body = JSON.stringify({ type: 'guide.edited', padding: 'x'.repeat(Math.max(0, meanBytes - 40)) });
      let sent = 0;
      const refStarted = performance.now();
      await Promise.all(
        Array.from({ length: DELIVERY_CONCURRENCY }, async () => {
          while (sent < EVENTS) {
            sent++;
            const id = `msg_${randomUUID()}`;
            const timestamp = String(Math.floor(Date.now() / 1000));
            const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': sign(secret, id, timestamp, body) }, body });
            await res.arrayBuffer();
          }
        }),
      );
      const refSeconds = (performance.now() - refStarted) / 1000;
      const apiRate = EVENTS / apiSeconds;
      const refRate = EVENTS / refSeconds;
      return {
        events: EVENTS,
        writesPerSecond: Math.round((EVENTS / ((written - started) / 1000)) * 10) / 10,
        apiDeliveriesPerSecond: Math.round(apiRate * 10) / 10,
        drainSeconds: Math.round((Math.max(0, lastDelivered - written) / 1000) * 100) / 100,
        referenceDeliveriesPerSecond: Math.round(refRate * 10) / 10,
        ratio: Math.round((apiRate / refRate) * 100) / 100,
        latencyP50Ms: percentile(0.5),
        latencyP95Ms: percentile(0.95),
        latencyMaxMs: Math.round(latencies[latencies.length - 1]! * 10) / 10,
        backlogDeliveriesPerSecond: Math.round((EVENTS / backlogSeconds) * 10) / 10,
        backlogRatio: Math.round((EVENTS / backlogSeconds / refRate) * 100) / 100,
        duplicates,
        badSignatures,
      };
    } finally {
      await call(origin, 'DELETE', `/webhooks/${String(created.body['webhookid'])}`, { token });
    }
  } finally {
    await receiver.close();
  }
}
