import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@rc/shared-infra-mikro-orm';
import { createTestDatabase, type TestDatabase } from '@rc/shared-infra-mikro-orm/testing';
import { sample } from './support/prometheus.js';

// The production start (`node apps/api/dist/main.js`, built first) for what only a process of its
// own shows: the metrics of a cluster aggregated across its workers, and OpenTelemetry tracing
// switched on by the standard OTEL_* variables.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

type LogLine = Record<string, unknown>;

interface Started {
  readonly child: ChildProcess;
  readonly origin: string;
  readonly logs: LogLine[];
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

async function startBuiltApi(db: TestDatabase, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const logs: LogLine[] = [];
  const child = spawn(process.execPath, ['apps/api/dist/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'], DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', DEMO_DATA: 'true', ARCHIVE_CHECK_SECONDS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // 'close', not 'exit': the exit can be reported before the last lines of the output are read.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        logs.push({ msg: `stdout: ${line}` });
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => logs.push({ msg: `stderr: ${chunk.toString()}` }));
  for (const until = Date.now() + 90_000; !logs.some((l) => l['msg'] === 'API ready'); ) {
    if (Date.now() > until || child.exitCode !== null) throw new Error(`the API did not start: ${JSON.stringify(logs.slice(-10))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    logs,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A GET on a connection of its own (the cluster hands each new connection to a worker in turn). */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { Connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the operability of the production start', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'apps/api/tsconfig.app.json'], { cwd: ROOT });
    db = await createTestDatabase();
  }, 180_000);
  afterAll(async () => {
    await db?.drop();
  });

  it('WEB_CONCURRENCY=2: one scrape, whichever worker answers it, counts the requests of both workers', async () => {
    const api = await startBuiltApi(db, { WEB_CONCURRENCY: '2', LOG_LEVEL: 'info', EVENT_DELIVERY: 'false' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push(await getOnNewConnection(`${api.origin}/api/2.0/categories?metrics-test=${i}`));
      expect(statuses).toEqual(Array(12).fill(200));
      // Both workers answered some of them (each logs its requests with its pid).
      const pids = new Set(api.logs.filter((l) => l['msg'] === 'request' && String(l['path']).endsWith('/categories')).map((l) => l['pid']));
      expect(pids.size).toBe(2);
      for (let scrape = 0; scrape < 4; scrape++) {
        const res = await fetch(`${api.origin}/api/2.0/metrics`, { headers: { Connection: 'close' } });
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/categories', status: '200' })).toBe(12);
        // Process metrics of the workers, summed (each worker has its pool of at least one connection).
        expect(sample(text, 'db_pool_max_connections', {})).toBe(20);
      }
    } finally {
      await api.stop();
    }
    expect(await api.exited).toBe(0);
  }, 120_000);

  describe('OpenTelemetry', () => {
    let receiver: Server;
    let endpoint: string;
    const spans: { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes: Record<string, unknown> }[] = [];

    beforeAll(async () => {
      // An OTLP/HTTP receiver (JSON encoding) on loopback.
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          if (req.url === '/v1/traces') {
            const payload = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes: { key: string; value: Record<string, unknown> }[] }[] }[] }[] };
            for (const rs of payload.resourceSpans) {
              for (const ss of rs.scopeSpans) {
                for (const s of ss.spans) spans.push({ ...s, attributes: Object.fromEntries(s.attributes.map((a) => [a.key, Object.values(a.value)[0]])) });
              }
            }
          }
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => receiver?.close(resolve));
    });

    it('sends a server span per request, named after its route (the hot path too), and PostgreSQL spans inside it', async () => {
      const api = await startBuiltApi(db, {
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_SERVICE_NAME: 'rc-api-under-test',
      });
      try {
        expect(api.logs).toContainEqual(expect.objectContaining({ msg: 'OpenTelemetry tracing on' }));
        expect((await fetch(`${api.origin}/api/2.0/guides?limit=1`)).status).toBe(200);
        expect((await fetch(`${api.origin}/api/2.0/guides/2`)).status).toBe(200);
        expect((await fetch(`${api.origin}/api/2.0/health/ready`)).status).toBe(200);
        const server = (route: string) => spans.find((s) => s.kind === 2 && s.name === `GET /api/2.0${route}`);
        for (const until = Date.now() + 20_000; !(server('/guides') && server('/guides/:guideid')); ) {
          if (Date.now() > until) throw new Error(`no server spans; got: ${JSON.stringify(spans.map((s) => s.name))}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const list = server('/guides')!;
        expect(list.attributes).toMatchObject({ 'http.route': '/api/2.0/guides', 'http.response.status_code': 200 });
        // PostgreSQL queries of that request, in its trace.
        const queries = spans.filter((s) => s.traceId === list.traceId && (s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql'));
        expect(queries.length).toBeGreaterThan(0);
        expect(server('/guides/:guideid')!.attributes).toMatchObject({ 'http.route': '/api/2.0/guides/:guideid' });
        // Probes are not traced.
        expect(spans.some((s) => s.kind === 2 && String(s.attributes['url.path'] ?? '').includes('/health/'))).toBe(false);
      } finally {
        await api.stop();
      }
      expect(await api.exited).toBe(0);
    }, 120_000);
  });
});
