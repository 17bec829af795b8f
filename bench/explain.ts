// `npm run bench -- --explain`: the SQL the API really runs for its hot reads, captured where it
// leaves for the server (the `pg` client's query calls, text and parameters) on an in-process
// instance of the built API, then run again under EXPLAIN (ANALYZE, BUFFERS) on the bench database.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { BENCH_APP_ID, BENCH_PASSWORD, writerEmail } from './generate.js';
import type { BenchOptions } from './lib/options.js';

interface RunningApi {
  readonly url: string;
  close(): Promise<void>;
}

// The built API is loaded at run time (it exists only after `npm run build`), typed by hand here.
interface ApiModules {
  startApi(config: unknown, logger: unknown): Promise<RunningApi>;
  loadConfig(env: Record<string, string>): unknown;
  createLogger(level: string): unknown;
}

async function loadApi(): Promise<ApiModules> {
  const load = (path: string) => import(pathToFileURL(resolve(path)).href) as Promise<Record<string, unknown>>;
  const [server, config, logger] = await Promise.all([load('apps/api/dist/server.js'), load('apps/api/dist/config/config.js'), load('apps/api/dist/logger.js')]);
  return { startApi: server['startApi'], loadConfig: config['loadConfig'], createLogger: logger['createLogger'] } as ApiModules;
}

interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** Records every statement any `pg` client of this process sends (the ORM's pool included) until the returned function is called. */
function captureQueries(onStatement: (statement: Statement) => void): () => void {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [config, values] = args as [string | { text?: string; values?: unknown[] } | undefined, unknown];
    const text = typeof config === 'string' ? config : config?.text;
    if (text) onStatement({ text, values: Array.isArray(values) ? values : typeof config === 'object' ? (config.values ?? []) : [] });
    return original.apply(this, args);
  };
  return () => {
    prototype.query = original;
  };
}

export async function runExplain(url: string, _options: BenchOptions, log: (line: string) => void): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const one = async <T>(sql: string): Promise<T> => (await db.query(sql)).rows[0] as T;
  const { live } = await one<{ live: number }>('SELECT count(*)::int AS live FROM guides WHERE is_public AND deleted_at IS NULL');
  // A public guide followed by another (both read anonymously below).
  const { id } = await one<{ id: number }>(
    'SELECT id FROM guides g WHERE is_public AND deleted_at IS NULL AND EXISTS (SELECT 1 FROM guides n WHERE n.id = g.id + 1 AND n.is_public AND n.deleted_at IS NULL) ORDER BY id OFFSET (SELECT count(*) / 2 FROM guides) LIMIT 1',
  );
  const { title } = await one<{ title: string }>(`SELECT title FROM wiki_pages WHERE namespace = 'CATEGORY' AND parent_id IS NOT NULL AND deleted_at IS NULL ORDER BY id DESC LIMIT 1`);
  const { writeId, revisionid } = await one<{ writeId: number; revisionid: number }>(
    'SELECT id AS "writeId", revisionid FROM guides WHERE is_public AND deleted_at IS NULL AND cardinality(prerequisites) = 0 ORDER BY id DESC OFFSET 5000 LIMIT 1',
  );
  // A thread with replies (none before generator version 5).
  const thread = await one<{ id: number } | undefined>('SELECT parent_id AS id FROM comments WHERE parent_id IS NOT NULL ORDER BY parent_id LIMIT 1').catch(() => undefined);
  // Search probes are not warmed: a warm-up would leave their ranking in the per-process cache
  // (queries with 500+ matches), and the first request of a query is the one that costs.
  const probes: { label: string; path: string; init?: (token: string) => RequestInit; cold?: boolean }[] = [
    { label: `GET /guides/${id}`, path: `/guides/${id}` },
    { label: `GET /guides/${id + 1} (first read of this process: its version with its stored body)`, path: `/guides/${id + 1}`, cold: true },
    { label: `GET /guides at offset 90% (${Math.floor(live * 0.9)})`, path: `/guides?limit=20&offset=${Math.floor(live * 0.9)}` },
    { label: 'GET /categories', path: '/categories' },
    { label: `GET /wikis/CATEGORY/${title}`, path: `/wikis/CATEGORY/${encodeURIComponent(title.replace(/ /g, '_'))}` },
    ...(thread ? [{ label: `GET /comments/${thread.id} (a thread with its replies, first read)`, path: `/comments/${thread.id}`, cold: true }] : []),
    { label: 'GET /search/battery (first request of the query)', path: '/search/battery', cold: true },
    { label: 'GET /search/battery (its ranking kept)', path: '/search/battery', cold: true },
    { label: 'GET /search/kettle heater (a kind of device and a part)', path: '/search/kettle%20heater', cold: true },
    { label: `GET /search/${title} (a device name)`, path: `/search/${encodeURIComponent(title)}`, cold: true },
    { label: 'GET /search/battery?offset=4420 (across the two zones)', path: '/search/battery?offset=4420&filter=guide', cold: true },
    { label: 'GET /suggest/bat (first request)', path: '/suggest/bat', cold: true },
    { label: 'GET /suggest/kest (first request)', path: '/suggest/kest', cold: true },
    {
      label: `PATCH /guides/${writeId} (a write: its statements are listed, not explained)`,
      path: `/guides/${writeId}?revisionid=${revisionid}`,
      init: (token) => ({ method: 'PATCH', headers: { Authorization: `api ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ summary: `Explained at ${new Date().toISOString()}.` }) }),
    },
  ];

  const api = await loadApi();
  let statements: Statement[] = [];
  const config = api.loadConfig({ DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false', LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://bench.example' });
  const running = await api.startApi(config, api.createLogger('silent'));
  const captured: { label: string; statements: Statement[]; status: number }[] = [];
  const release = captureQueries((statement) => {
    if (!/^\s*(begin|commit|rollback|reset|set)\b/i.test(statement.text)) statements.push(statement);
  });
  try {
    const login = await fetch(`${running.url}/api/2.0/user/token`, {
      method: 'POST',
      headers: { 'X-App-Id': BENCH_APP_ID, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: writerEmail(0), password: BENCH_PASSWORD }),
    });
    const { authToken: token } = (await login.json()) as { authToken: string };
    for (const probe of probes) {
      statements = [];
      // Warm (first-use queries do not count); a write is not repeated.
      if (!probe.init && !probe.cold) await fetch(`${running.url}/api/2.0${probe.path}`).then((res) => res.arrayBuffer());
      statements = [];
      const res = await fetch(`${running.url}/api/2.0${probe.path}`, probe.init?.(token));
      await res.arrayBuffer();
      captured.push({ label: probe.label, statements, status: res.status });
    }
  } finally {
    release();
    await running.close();
  }

  try {
    for (const probe of captured) {
      process.stdout.write(`\n${'='.repeat(100)}\n${probe.label}: ${probe.status}, ${probe.statements.length} statement(s)\n`);
      for (const { text, values } of probe.statements) {
        const oneLine = text.replace(/\s+/g, ' ').trim();
        process.stdout.write(`\n--- ${oneLine.slice(0, 600)}${oneLine.length > 600 ? ' …' : ''}\n`);
        if (values.length) process.stdout.write(`    parameters: ${JSON.stringify(values).slice(0, 300)}\n`);
        if (!/^\s*(select|with)\b/i.test(text) || /\bfor (update|share)\b/i.test(text)) {
          process.stdout.write('(not a read: not explained)\n');
          continue;
        }
        // EXPLAIN ANALYZE runs the statement: a `WITH … UPDATE` or a function that writes
        // (`SELECT issue_auth_token(…)`) would write again, so each runs in a transaction rolled back.
        await db.query('BEGIN');
        try {
          const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, [...values]);
          process.stdout.write(rows.map((r) => r['QUERY PLAN']).join('\n') + '\n');
        } catch (error) {
          process.stdout.write(`(could not explain: ${error instanceof Error ? error.message : String(error)})\n`);
        } finally {
          await db.query('ROLLBACK');
        }
      }
    }
  } finally {
    await db.end();
  }
  log(`\n${captured.length} requests explained`);
}
