// `npm run bench`: generates (or reuses) the data set, starts the production build of the API and
// the two references as separate processes, drives every scenario with autocannon after a
// warm-up, and prints one table (also written as JSON). See the README's Benchmarks section.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { freePort } from '@rc/shared-infra-mikro-orm';
import { runExplain } from './explain.js';
import { measureWebhooks } from './webhooks.js';
import { defaultHashingBounds } from '@rc/identity-infra-mikro-orm';
import { argon2VerificationsPerSecond } from './argon2.js';
import { measureMedia } from './media.js';
import { BENCH_APP_ID, countsFor, generate, GENERATOR_VERSION } from './generate.js';
import { buildGuideBodies, migrate, openReplicatedServer, openServer, readStamp, recreateDatabase, vacuumAnalyze, warmOsCache, writeStamp, type PostgresServer } from './lib/database.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { parseOptions, type BenchOptions } from './lib/options.js';
import { summariseProfiles } from './lib/profile.js';
import { announcedPort, CpuMeter, highWaterMb, RssSampler, startNode, waitForHttp, type Child } from './lib/processes.js';
import { Random, Zipf } from './lib/random.js';
import { scenarios, writerTokens, type BenchContext, type Scenario, type Target } from './scenarios.js';

const log = (line: string): void => void process.stderr.write(`${line}\n`);
/** The origin the API and the floor put in `url` fields (the same, so their bodies compare). */
const BASE_URL = 'http://bench.example';

async function prepare(options: BenchOptions, server: PostgresServer): Promise<{ url: string; generatedSeconds: number | null; bodiesSeconds: number }> {
  const url = server.urlFor(options.database);
  if (options.reuse) {
    const stamp = await readStamp(server, options.database);
    if (stamp && stamp.version === GENERATOR_VERSION && stamp.scale === options.scale && stamp.seed === options.seed) {
      log(`reusing database ${options.database} (scale ${stamp.scale}, seed ${stamp.seed}, generated ${stamp.generatedAt})`);
      await migrate(url, log);
      return { url, generatedSeconds: null, bodiesSeconds: await readModelAndStatistics(url) };
    }
    log(`database ${options.database} ${stamp ? `holds scale ${stamp.scale}, seed ${stamp.seed} (generator ${stamp.version})` : 'holds no bench data set'}: generating`);
  }
  const counts = countsFor(options.scale);
  log(`generating scale ${options.scale} (seed ${options.seed}): ${counts.guides} guides, ${counts.categories} categories, ${counts.users} users`);
  await recreateDatabase(server, options.database);
  await migrate(url, log);
  const result = await generate(url, { scale: options.scale, seed: options.seed, log });
  log(`data set generated in ${result.seconds.toFixed(1)} s`);
  await writeStamp(server, options.database, { version: GENERATOR_VERSION, scale: options.scale, seed: options.seed, generatedAt: new Date().toISOString(), seconds: result.seconds });
  return { url, generatedSeconds: result.seconds, bodiesSeconds: await readModelAndStatistics(url) };
}

/**
 * Fills the guide bodies' read model, then analyses every table (the read model's included) and
 * reads the database's files into the OS page cache; answers the fill's seconds.
 */
async function readModelAndStatistics(url: string): Promise<number> {
  const seconds = await buildGuideBodies(url, BASE_URL, log);
  await vacuumAnalyze(url, log);
  await warmOsCache(url, log);
  return seconds;
}

interface Row extends LoadResult {
  readonly name: string;
  readonly target: Target;
  readonly description: string;
  readonly peakRssMb: number;
  readonly processes: number;
  /** CPU ms per response of the server's processes (every thread), and of its database backends. */
  readonly cpuMsPerRequest: number;
  readonly dbCpuMsPerRequest: number;
  ratioFloor?: number;
  ratioStatic?: number;
  readonly extra: Record<string, number | string>;
  readonly notes: string[];
}

/** What differs from the production start in the API's start: flags given and memory settings set. */
function apiSettings(options: BenchOptions): string[] {
  const set = ['CACHE_MB', 'GUIDE_CACHE_MB', 'PAGE_CACHE_MB', 'LIST_CACHE_MB', 'UV_THREADPOOL_SIZE'].filter((name) => process.env[name]).map((name) => `${name}=${process.env[name]}`);
  return [...options.nodeFlags, ...set];
}

/** Starts the production build of the API (`node apps/api/dist/main.js`) on the bench database. */
async function startApi(
  url: string,
  options: BenchOptions,
  profileDir: string | null,
  replicaUrl: string | null,
  env: Record<string, string> = {},
): Promise<{ child: Child; origin: string; startMs: number }> {
  const port = await freePort();
  // The production start (`npm start`): the same V8 flags, then any given with --node-flags.
  const flags = ['--max-old-space-size=320', '--max-semi-space-size=16', ...options.nodeFlags];
  const child = startNode([...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...flags, 'apps/api/dist/main.js'], {
    ...process.env,
    NODE_ENV: 'production',
    // glibc's malloc as `npm start` and the Docker image set it (see docs/benchmarks.md, "Peak RSS").
    MALLOC_MMAP_THRESHOLD_: '131072',
    MALLOC_ARENA_MAX: '2',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    ...(replicaUrl ? { DATABASE_REPLICA_URLS: replicaUrl } : {}),
    DEMO_DATA: 'false',
    APP_IDS: BENCH_APP_ID,
    PUBLIC_BASE_URL: BASE_URL,
    LOG_LEVEL: options.logLevel,
    // The webhook figures deliver to a receiver on loopback.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Its own files (offline archives, media) per bench database, beside the embedded server's data.
    DATA_DIR: join(options.dataDir, '..', `api-${options.database}`),
    ...env,
  });
  const origin = `http://127.0.0.1:${port}`;
  const startMs = await waitForHttp(`${origin}/api/2.0/guides?limit=1`, child);
  return { child, origin, startMs };
}

/** Waits until the API lists an offline archive (GET /archives), sampling its RSS meanwhile. */
async function awaitFirstArchive(origin: string, child: Child, timeoutMs = 60 * 60_000): Promise<{ seconds: number; peakRssMb: number; buildPeakRssMb: number }> {
  const started = Date.now();
  const sampler = new RssSampler(child.pid);
  let lastLog = started;
  try {
    for (let attempt = 0; ; attempt++) {
      if (child.process.exitCode !== null) throw new Error(`the API exited while building its first archive (${child.process.exitCode}):\n${child.output()}`);
      const res = await fetch(`${origin}/api/2.0/archives`);
      const listed = res.status === 200 ? ((await res.json()) as unknown[]) : (await res.arrayBuffer(), []);
      if (listed.length) {
        const rss = sampler.stop();
        return { seconds: attempt === 0 ? 0 : (Date.now() - started) / 1000, peakRssMb: rss.maxProcessMb, buildPeakRssMb: rss.archiveBuildMb };
      }
      if (Date.now() - started > timeoutMs) throw new Error(`the API built no offline archive within ${timeoutMs / 1000} s`);
      if (Date.now() - lastLog > 30_000) {
        lastLog = Date.now();
        log(`  building the first offline archive (${Math.round((lastLog - started) / 1000)} s so far)`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    sampler.stop();
  }
}

async function startReference(mode: 'floor' | 'static' | 'lookup', url: string, staticId?: number): Promise<{ child: Child; origin: string }> {
  const child = startNode(['bench/dist/reference-server.js', mode, url, BASE_URL, ...(staticId ? [String(staticId)] : [])], process.env);
  const port = await announcedPort(child);
  return { child, origin: `http://127.0.0.1:${port}` };
}

/** JSON with sorted keys, for comparing bodies whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (canonical(a) === canonical(b)) return '';
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
  }
  return `${path || '(body)'}: API ${JSON.stringify(a)?.slice(0, 80)} / floor ${JSON.stringify(b)?.slice(0, 80)}`;
}

/** The floor must answer what the API answers: compares both bodies for a sample of guides (with and without prerequisites). */
async function checkFloor(ctx: BenchContext, ids: readonly number[], resource: 'guides' | 'comments' = 'guides'): Promise<{ compared: number; differing: number; example: string }> {
  let differing = 0;
  let example = '';
  for (const id of ids) {
    // Without `views`: a live counter (the API shows it per window, the floor as stored now).
    const [api, floor] = await Promise.all(
      [ctx.origins.api, ctx.origins.floor].map(async (origin) => ({ ...((await (await fetch(`${origin}/api/2.0/${resource}/${id}`)).json()) as object), views: undefined })),
    );
    const difference = firstDifference(api, floor);
    if (difference) {
      differing++;
      example ||= `${resource === 'guides' ? 'guide' : 'comment'} ${id} ${difference}`;
    }
  }
  return { compared: ids.length, differing, example };
}

/**
 * When a run ends, autocannon drops the requests in flight, but the servers (and PostgreSQL) still
 * finish them, so that work would weigh on the next measurement. Waits until PostgreSQL runs none
 * of their statements and each server's processes spend under a tenth of a core for two spans of
 * 200 ms in a row. Work without a statement shows only in the CPU: logins waiting for a password
 * hash, whose attempts the throttle counts until they end (left running, they would be counted
 * with the next window's and refuse some of its logins).
 */
async function waitForIdle(ctx: BenchContext, what: string, pids: readonly number[]): Promise<void> {
  const started = Date.now();
  let quiet = 0;
  while (quiet < 2 && Date.now() - started < 180_000) {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    );
    quiet = rows[0]!.n === 0 ? quiet + 1 : 0;
    if (quiet < 2) await new Promise((r) => setTimeout(r, 100));
  }
  quiet = 0;
  while (quiet < 2 && Date.now() - started < 180_000) {
    const meters = await Promise.all(pids.map((pid) => CpuMeter.start(pid, async () => [])));
    await new Promise((r) => setTimeout(r, 200));
    const spent = await Promise.all(meters.map((meter) => meter.stop()));
    quiet = spent.every(({ processMs }) => processMs < 20) ? quiet + 1 : 0;
  }
  const waited = (Date.now() - started) / 1000;
  if (waited > 2) log(`  (waited ${waited.toFixed(1)} s after ${what} for dropped requests to finish)`);
}

/** The runner's own connections, left out of the CPU the database spends on a scenario. */
const RUNNER_APPLICATION = 'bench-runner';

/** Backends of the bench database serving anything but the runner (the API's, the references'). */
async function serverBackends(ctx: BenchContext): Promise<number[]> {
  const { rows } = await ctx.db.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND application_name <> $1`,
    [RUNNER_APPLICATION],
  );
  return rows.map((row) => row.pid);
}

async function measure(scenario: Scenario, ctx: BenchContext, pids: readonly number[], origins: readonly string[], options: BenchOptions): Promise<Row> {
  await scenario.prepare?.(ctx);
  const samplers = pids.map((pid) => new RssSampler(pid));
  const base = { origin: origins, connections: options.connections, expected: scenario.expected, driver: (c: number) => scenario.driver(ctx, c) };
  if (options.warmup > 0) {
    await runLoad({ ...base, seconds: options.warmup });
    await waitForIdle(ctx, 'the warm-up', pids);
    await scenario.afterRun?.(ctx);
  }
  const meters = await Promise.all(pids.map((pid, i) => CpuMeter.start(pid, i === 0 ? () => serverBackends(ctx) : async () => [])));
  const result = await runLoad({ ...base, seconds: options.duration });
  await waitForIdle(ctx, 'the run', pids);
  const cpu = await Promise.all(meters.map((meter) => meter.stop()));
  await scenario.afterRun?.(ctx);
  const peaks = samplers.map((sampler) => sampler.stop());
  const rss = {
    maxProcessMb: Math.max(...peaks.map((p) => p.maxProcessMb)),
    archiveBuildMb: Math.max(...peaks.map((p) => p.archiveBuildMb)),
    processes: peaks.reduce((sum, p) => sum + p.processes, 0),
  };
  const extra = (await scenario.verify?.(ctx)) ?? {};
  // A scheduled archive rebuild ran meanwhile (its process is not the API's figure).
  if (rss.archiveBuildMb) extra['archiveBuildRssMb'] = rss.archiveBuildMb;
  const notes = [...(scenario.notes ?? [])];
  const unexpected = Object.entries(result.statusCodes).filter(([status]) => !scenario.expected.includes(Number(status)));
  if (result.requests < options.connections) notes.push(`only ${result.requests} responses for ${options.connections} connections: requests take longer than the run`);
  if (unexpected.length) notes.push(`unexpected statuses: ${unexpected.map(([s, n]) => `${n} × ${s}`).join(', ')}`);
  // CPU per response: the server processes' (every thread), and the database's backends'.
  const per = (ms: number) => Math.round((ms / Math.max(1, result.requests)) * 100) / 100;
  const cpuMsPerRequest = per(cpu.reduce((sum, c) => sum + c.processMs, 0));
  const dbCpuMsPerRequest = per(cpu.reduce((sum, c) => sum + c.databaseMs, 0));
  if (scenario.expected.includes(304)) extra['share304'] = Math.round(((result.statusCodes['304'] ?? 0) / Math.max(1, result.requests)) * 1000) / 1000;
  return { name: scenario.name, target: scenario.target, description: scenario.description, ...result, peakRssMb: rss.maxProcessMb, processes: rss.processes, cpuMsPerRequest, dbCpuMsPerRequest, extra, notes };
}

function table(rows: Row[]): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'peak RSS MB', 'CPU ms/req', 'DB ms/req', '× floor', '× static'];
  const body = rows.map((r) => [
    r.name,
    String(r.rps),
    r.p50.toFixed(1),
    r.p95.toFixed(1),
    r.p99.toFixed(1),
    String(r.errors + r.unexpected),
    String(r.peakRssMb),
    r.cpuMsPerRequest.toFixed(2),
    r.dbCpuMsPerRequest.toFixed(2),
    r.ratioFloor === undefined ? '' : r.ratioFloor.toFixed(2),
    r.ratioStatic === undefined ? '' : r.ratioStatic.toFixed(3),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
  for (const r of rows) {
    const extras = Object.entries(r.extra).map(([k, v]) => `${k} ${v}`);
    if (extras.length || r.notes.length) out.push(`  ${r.name}: ${[...extras, ...r.notes].join('; ')}`);
  }
  return out.join('\n');
}

/** Where the bench keeps the photographs it draws for the media figures. */
const mediaDirOf = (options: BenchOptions): string => join(options.dataDir, '..', 'bench-media');

async function loadContext(db: pg.Pool, origins: Record<Target, string>, options: BenchOptions): Promise<BenchContext> {
  const live = (await db.query<{ id: number }>('SELECT id FROM guides WHERE is_public AND deleted_at IS NULL ORDER BY id')).rows.map((r) => r.id);
  const categories = (await db.query<{ title: string }>(`SELECT title FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL ORDER BY id`)).rows.map((r) => r.title);
  const popular = new Random(options.seed, 99).shuffle([...live]);
  const threadIds = await db.query<{ id: number }>(
    `SELECT c.id FROM comments c JOIN guides g ON g.id = c.guide_id AND g.is_public AND g.deleted_at IS NULL WHERE c.parent_id IS NULL AND c.deleted_at IS NULL ORDER BY c.id`,
  ).then((result) => result.rows.map((r) => r.id), () => [] as number[]);
  const threads = new Random(options.seed, 98).shuffle(threadIds);
  return {
    origins, db, seed: options.seed, connections: options.connections, live, popular, zipf: new Zipf(popular.length), categories,
    threads, threadZipf: new Zipf(Math.max(1, threads.length)), etagSample: options.etagSample, mediaDir: mediaDirOf(options), log,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const loadBefore = loadavg();
  const server = options.replica ? await openReplicatedServer(log) : await openServer(process.env['DATABASE_URL'], options.dataDir, log);
  const children: Child[] = [];
  let db: pg.Pool | null = null;
  let profileDir: string | null;
  try {
    const { url, generatedSeconds, bodiesSeconds } = await prepare(options, server);
    if (options.generateOnly) return;
    if (options.explain) {
      await runExplain(url, options, log);
      return;
    }
    db = new pg.Pool({ connectionString: url, max: 4, application_name: RUNNER_APPLICATION });
    // An idle connection closed by the server (when it stops) is not an error of the run.
    db.on('error', () => undefined);
    profileDir = options.profile ? join(dirname(options.out), `profile-${new Date().toISOString().replace(/[:.]/g, '-')}`) : null;
    // The replica has everything the generation wrote before the API reads it.
    await server.replica?.caughtUp();
    const api = await startApi(url, options, profileDir, server.replica?.urlFor(options.database) ?? null, options.noArchive ? { ARCHIVE_CHECK_SECONDS: '0' } : {});
    children.push(api.child);
    const apiGiven = apiSettings(options);
    const withSettings = apiGiven.length ? `, with ${apiGiven.join(' ')}` : '';
    log(`API started in ${api.startMs} ms (pid ${api.child.pid})${withSettings}`);
    // A fresh API builds its first offline archive in the background at start when the data
    // directory holds none: a one-time task, measured here on its own rather than inside the first
    // scenarios it would slow down.
    const firstArchive = options.noArchive ? null : await awaitFirstArchive(api.origin, api.child);
    if (!firstArchive) log('offline archive: not scheduled (--no-archive)');
    else log(firstArchive.seconds === 0 ? 'offline archive: already built' : `first offline archive built in ${firstArchive.seconds.toFixed(1)} s, API peak RSS during the build ${firstArchive.peakRssMb} MB, the build's process ${firstArchive.buildPeakRssMb} MB`);
    const floor = await startReference('floor', url);
    children.push(floor.child);
    const origins: Record<Target, string> = { api: api.origin, floor: floor.origin, static: '', lookup: '', 'thread-floor': floor.origin };
    const ctx0 = await loadContext(db, origins, options);

    // The static body: the guide of median size among a sample, as the floor builds it.
    const r = new Random(options.seed, 5);
    const sample = Array.from({ length: 51 }, () => ctx0.live[Math.floor(r.next() * ctx0.live.length)]!);
    const sizes = await Promise.all(sample.map(async (id) => ({ id, bytes: (await (await fetch(`${floor.origin}/api/2.0/guides/${id}`)).arrayBuffer()).byteLength })));
    sizes.sort((a, b) => a.bytes - b.bytes);
    const median = sizes[Math.floor(sizes.length / 2)]!;
    const staticRef = await startReference('static', url, median.id);
    children.push(staticRef.child);
    const lookupRef = await startReference('lookup', url, median.id);
    children.push(lookupRef.child);
    const ctx: BenchContext = { ...ctx0, origins: { ...origins, static: staticRef.origin, lookup: lookupRef.origin } };
    const meanKb = sizes.reduce((sum, s) => sum + s.bytes, 0) / sizes.length / 1024;
    log(`guide bodies: mean ${meanKb.toFixed(1)} KB, median ${(median.bytes / 1024).toFixed(1)} KB (the static body: guide ${median.id})`);

    const withPrerequisites = (await db.query<{ id: number }>(`SELECT id FROM guides WHERE is_public AND deleted_at IS NULL AND cardinality(prerequisites) > 0 ORDER BY id LIMIT 5`)).rows.map((row) => row.id);
    const fidelity = await checkFloor(ctx, [...sample.slice(0, 15), ...withPrerequisites]);
    log(`floor vs API bodies: ${fidelity.compared - fidelity.differing} of ${fidelity.compared} identical${fidelity.example ? ` (first difference: ${fidelity.example})` : ''}`);
    const threadFidelity = await checkFloor(ctx, ctx.threads.slice(0, 20), 'comments');
    log(`floor vs API comment threads: ${threadFidelity.compared - threadFidelity.differing} of ${threadFidelity.compared} identical${threadFidelity.example ? ` (first difference: ${threadFidelity.example})` : ''}`);

    const processes: Record<Target, Child> = { api: api.child, floor: floor.child, static: staticRef.child, lookup: lookupRef.child, 'thread-floor': floor.child };
    // `--only` names scenarios exactly, or by prefix when no scenario has that exact name.
    const all = scenarios();
    const wanted = (name: string) => options.only.some((o) => name === o || (!all.some((s) => s.name === o) && name.startsWith(o)));
    // The references always run; the comment thread's only with the comment thread.
    const chosen = all
      .filter((s) => s.target === 'floor' || s.target === 'static' || !options.only.length || wanted(s.name) || (s.target === 'thread-floor' && wanted('comment-thread')))
      .filter((s) => ctx.threads.length > 0 || !s.name.startsWith('comment-thread'));
    // The write scenarios' accounts log in before the login scenario uses up the login rate limit.
    if (chosen.some((scenario) => scenario.name === 'patch' || scenario.name.startsWith('mixed'))) await writerTokens(ctx);
    const rows: Row[] = [];
    // A second API process on the same database, for the scenarios spread over two (started when
    // the first of them runs; it builds no archive: the first process does).
    let second: Awaited<ReturnType<typeof startApi>> | null = null;
    for (const scenario of chosen) {
      log(`${scenario.name}: ${options.warmup} s warm-up, ${options.duration} s measured, ${options.connections} connections`);
      const spread = scenario.target === 'api' && scenario.instances === 2;
      if (spread && !second) {
        second = await startApi(url, options, null, server.replica?.urlFor(options.database) ?? null, { ARCHIVE_CHECK_SECONDS: '0' });
        children.push(second.child);
        log(`  a second API process started in ${second.startMs} ms (pid ${second.child.pid})`);
      }
      const targets = spread && second ? [processes[scenario.target], second.child] : [processes[scenario.target]];
      const row = await measure(scenario, ctx, targets.map((t) => t.pid), spread && second ? [ctx.origins.api, second.origin] : [ctx.origins[scenario.target]], options);
      for (const target of targets) {
        const exited = target.process;
        if (exited.exitCode !== null || exited.signalCode !== null) {
          throw new Error(`the ${scenario.target} process exited during ${scenario.name} (${exited.exitCode ?? exited.signalCode}); its last output:\n${target.output()}`);
        }
      }
      rows.push(row);
      log(`  ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${row.errors + row.unexpected}, peak RSS ${row.peakRssMb} MB${Object.keys(row.extra).length ? `, ${JSON.stringify(row.extra)}` : ''}`);
    }
    // Login's limit: argon2id verifications of the same hash alone, in this process, as many at once.
    const login = rows.find((row) => row.name === 'login');
    if (login) {
      const alone = await argon2VerificationsPerSecond(options.duration, options.connections);
      login.extra['argon2AloneRps'] = Math.round(alone.perSecond * 10) / 10;
      login.extra['xArgon2'] = Math.round((login.rps / alone.perSecond) * 100) / 100;
      log(`  login's reference: ${login.extra['argon2AloneRps']} argon2id verifications/s alone; login at ${login.extra['xArgon2']} × that`);
      // The same, at most as many at once as the API's bound on concurrent hashes lets run.
      const { concurrency } = defaultHashingBounds();
      const boundedAlone = await argon2VerificationsPerSecond(options.duration, options.connections, concurrency);
      login.extra['argon2BoundedRps'] = Math.round(boundedAlone.perSecond * 10) / 10;
      log(`  with at most ${concurrency} at once (the API's bound): ${login.extra['argon2BoundedRps']} verifications/s; login at ${Math.round((login.rps / boundedAlone.perSecond) * 100) / 100} × that`);
      // Where a login's CPU goes: the verification it cannot avoid, and the rest (the API's and the database's).
      login.extra['argon2CpuMs'] = alone.cpuMsPerVerification;
      login.extra['otherCpuMs'] = Math.round((login.cpuMsPerRequest + login.dbCpuMsPerRequest - alone.cpuMsPerVerification) * 100) / 100;
      log(`  CPU per login: ${login.cpuMsPerRequest} ms in the API, ${login.dbCpuMsPerRequest} ms in PostgreSQL; an argon2id verification alone: ${alone.cpuMsPerVerification} ms`);
    }
    // The media figures (not a load run): uploads made into every size against the image library alone.
    const media = !options.only.length || wanted('media-upload') ? await measureMedia(api.origin, api.child.pid, mediaDirOf(options), log) : null;
    // The webhook figures (not a load run): deliveries of the whole pipeline against a plain client's.
    const webhooks = !options.only.length || wanted('webhooks') ? await measureWebhooks(api.origin, db, log) : null;
    const mean = (target: Target) => {
      const list = rows.filter((row) => row.target === target);
      return list.reduce((sum, row) => sum + row.rps, 0) / Math.max(1, list.length);
    };
    // A comment thread against its own reference, the floor's statement for a thread.
    const thread = rows.find((row) => row.name === 'comment-thread');
    const threadFloor = mean('thread-floor');
    if (thread && threadFloor) thread.extra['xThreadFloor'] = Math.round((thread.rps / threadFloor) * 100) / 100;
    const floorRps = mean('floor');
    const staticRps = mean('static');
    for (const row of rows) {
      row.ratioFloor = floorRps ? Math.round((row.rps / floorRps) * 100) / 100 : undefined;
      row.ratioStatic = staticRps ? Math.round((row.rps / staticRps) * 1000) / 1000 : undefined;
    }
    const apiHighWater = highWaterMb(api.child.pid);
    // What the server had to work with: the same data runs differently when it fits its buffers.
    const { rows: [settings] } = await db.query<{ version: string; shared_buffers: string; size_mb: string }>(
      `SELECT current_setting('server_version') AS version, current_setting('shared_buffers') AS shared_buffers, (pg_database_size(current_database()) / 1048576)::text AS size_mb`,
    );
    if (api.child.outputBytes() > 100_000) log(`the API printed ${Math.round(api.child.outputBytes() / 1024)} KB of log during the run; the last lines:\n${api.child.output().slice(-1500)}`);
    const counts = countsFor(options.scale);
    const meta = {
      date: new Date().toISOString(),
      scale: options.scale,
      seed: options.seed,
      counts: { ...counts, liveGuides: ctx.live.length },
      generatedSeconds,
      guideBodiesSeconds: bodiesSeconds,
      connections: options.connections,
      durationSeconds: options.duration,
      warmupSeconds: options.warmup,
      apiStartMs: api.startMs,
      apiSettings: apiGiven,
      firstArchive,
      media,
      webhooks,
      apiHighWaterRssMb: apiHighWater,
      apiLogKb: Math.round(api.child.outputBytes() / 1024),
      guideBodyKb: { mean: Math.round(meanKb * 10) / 10, median: Math.round((median.bytes / 1024) * 10) / 10 },
      floorFidelity: fidelity,
      threadFloorFidelity: threadFidelity,
      references: { floorRps: Math.round(floorRps), staticRps: Math.round(staticRps) },
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? '', memoryGb: Math.round(totalmem() / 2 ** 30), loadBefore: loadBefore.map((l) => Math.round(l * 100) / 100), loadAfter: loadavg().map((l) => Math.round(l * 100) / 100) },
      node: process.version,
      database: server.description,
      databaseServer: { version: settings!.version, sharedBuffers: settings!.shared_buffers, databaseMb: Number(settings!.size_mb) },
      logLevel: options.logLevel,
      webConcurrency: process.env['WEB_CONCURRENCY'] ?? null,
    };
    process.stdout.write(`\nscale ${options.scale} (${ctx.live.length} public guides, mean body ${meta.guideBodyKb.mean} KB), ${options.connections} connections, ${options.duration} s per scenario after ${options.warmup} s warm-up; API started in ${api.startMs} ms${withSettings}, its RSS high-water mark ${apiHighWater} MB; load average ${meta.machine.loadBefore[0]} before, ${meta.machine.loadAfter[0]} after (${meta.machine.cpus} CPUs); PostgreSQL ${meta.databaseServer.version} (${meta.database}), shared_buffers ${meta.databaseServer.sharedBuffers}, database ${meta.databaseServer.databaseMb} MB\n\n`);
    process.stdout.write(`${table(rows)}\n\n`);
    if (media) {
      process.stdout.write(
        `media-upload: ${media.apiImagesPerSecond} images/s made into every size (${media.photos} photographs of ${media.photoMb} MB), ` +
          `${media.ratio} × the image library alone (${media.referenceImagesPerSecond} images/s); ` +
          `${media.largeUploads} concurrent uploads of ${media.largeUploadMb} MB (accepted in ${media.largeUploadsSeconds} s, then made into every size): API peak RSS ${media.peakRssMbDuringLargeUploads} MB\n\n`,
      );
    }
    if (webhooks) {
      process.stdout.write(
        `webhooks: ${webhooks.events} guide edits (${webhooks.writesPerSecond}/s) delivered at ${webhooks.apiDeliveriesPerSecond}/s from the first edit to the last delivery ` +
          `(${webhooks.drainSeconds} s after the last edit), ${webhooks.ratio} × a plain client signing and posting as many to the same receiver ` +
          `(${webhooks.referenceDeliveriesPerSecond}/s); edit answered to delivery p50 ${webhooks.latencyP50Ms} ms, p95 ${webhooks.latencyP95Ms} ms, max ${webhooks.latencyMaxMs} ms; ` +
          `a backlog of as many events committed at once delivered at ${webhooks.backlogDeliveriesPerSecond}/s (${webhooks.backlogRatio} × the plain client); ` +
          `${webhooks.duplicates} duplicates, ${webhooks.badSignatures} bad signatures\n\n`,
      );
    }
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(options.out, JSON.stringify({ meta, scenarios: rows }, null, 2) + '\n');
    log(`results written to ${options.out}`);
  } catch (error) {
    // What the API processes printed last (their errors) tells why a request failed; a fetch
    // that failed says why in its cause.
    for (const child of children) log(`the last output of process ${child.pid}${child.process.exitCode !== null || child.process.signalCode !== null ? ` (exited: ${child.process.exitCode ?? child.process.signalCode})` : ''}:\n${child.output().slice(-4000)}`);
    throw error;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await db?.end();
    await server.stop();
  }
  if (profileDir) process.stdout.write(`CPU profile of the API:\n${await summariseProfiles(profileDir)}\n`);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  if (error instanceof Error && error.cause !== undefined) log(`caused by: ${error.cause instanceof Error ? (error.cause.stack ?? error.cause.message) : String(error.cause)}`);
  process.exit(1);
});
