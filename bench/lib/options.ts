export interface BenchOptions {
  readonly scale: number;
  readonly seed: number;
  /** Seconds measured per scenario. */
  readonly duration: number;
  /** Seconds of warm-up before each scenario (not measured). */
  readonly warmup: number;
  readonly connections: number;
  /** Scenario names (or prefixes) to run; empty = all. */
  readonly only: readonly string[];
  readonly reuse: boolean;
  readonly explain: boolean;
  /** Start the API with --cpu-prof and print where its CPU time went. */
  readonly profile: boolean;
  readonly generateOnly: boolean;
  /** Run on a primary and a streaming replica of the system's PostgreSQL, the API reading the replica (DATABASE_REPLICA_URLS). */
  readonly replica: boolean;
  /** Start the API without its archive schedule: no first archive to wait for (figures of reads alone, at any scale). */
  readonly noArchive: boolean;
  readonly database: string;
  readonly dataDir: string;
  readonly logLevel: string;
  /** Node and V8 flags given to the API after the production start's own (a later flag wins). */
  readonly nodeFlags: readonly string[];
  /** Guides whose ETags the conditional-GET scenarios learn first. */
  readonly etagSample: number;
  readonly out: string;
}

const HELP = `Usage: npm run bench -- [options]

  --scale N          data set size: 1 = 100,000 guides, 10,000 categories, 50,000 users (default 1)
  --seed N           seed of the data set (default 1)
  --duration S       seconds measured per scenario (default 10)
  --warmup S         seconds of warm-up before each scenario (default 3)
  --connections N    concurrent connections (default 32)
  --only A,B         only these scenarios (exact names, else prefixes; the references always run)
  --reuse            keep the database when it already holds this scale and seed
  --explain          print EXPLAIN (ANALYZE, BUFFERS) of the API's hot queries instead of load
  --profile          run the API with --cpu-prof and print its self time by package and function
                     (best with --only: the profile covers every scenario run)
  --generate-only    generate the data set, then stop
  --replica          a primary and one streaming replica of the system's PostgreSQL (temporary,
                     generated afresh), the API reading the replica (DATABASE_REPLICA_URLS)
  --no-archive       start the API without its offline-archive schedule (ARCHIVE_CHECK_SECONDS=0): no
                     first archive to build and wait for (a large scale's reads measured sooner)
  --database NAME    database to create on the server (default rc_bench)
  --data-dir DIR     embedded PostgreSQL data when DATABASE_URL is unset (default .data/bench)
  --log-level L      LOG_LEVEL of the API under test (default warn)
  --node-flags "F"   Node and V8 flags for the API, after the production start's own, which they
                     override (e.g. "--max-semi-space-size=4"); the API's other settings come from
                     the environment (e.g. CACHE_MB=16 npm run bench ...)
  --etag-sample N    guides whose ETags the If-None-Match scenarios learn first (default 2000)
  --out FILE         JSON results (default bench/results/latest.json)
`;

export function parseOptions(argv: readonly string[]): BenchOptions {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  const booleans = new Set(['reuse', 'explain', 'profile', 'generate-only', 'replica', 'no-archive', 'help']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument '${arg}'\n\n${HELP}`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    if (booleans.has(name)) {
      flags.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    values[name] = value;
  }
  if (flags.has('help')) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const known = new Set(['scale', 'seed', 'duration', 'warmup', 'connections', 'only', 'database', 'data-dir', 'log-level', 'node-flags', 'etag-sample', 'out']);
  for (const name of Object.keys(values)) if (!known.has(name)) throw new Error(`unknown option --${name}\n\n${HELP}`);
  const number = (name: string, fallback: number, min: number): number => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}`);
    return n;
  };
  return {
    scale: number('scale', 1, 0.0001),
    seed: Math.floor(number('seed', 1, 0)),
    duration: number('duration', 10, 1),
    warmup: number('warmup', 3, 0),
    connections: Math.floor(number('connections', 32, 1)),
    only: (values['only'] ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    reuse: flags.has('reuse'),
    explain: flags.has('explain'),
    profile: flags.has('profile'),
    generateOnly: flags.has('generate-only'),
    replica: flags.has('replica'),
    noArchive: flags.has('no-archive'),
    database: values['database'] ?? 'rc_bench',
    dataDir: values['data-dir'] ?? '.data/bench',
    logLevel: values['log-level'] ?? 'warn',
    nodeFlags: (values['node-flags'] ?? '').split(/\s+/).filter(Boolean),
    etagSample: Math.floor(number('etag-sample', 2000, 1)),
    out: values['out'] ?? 'bench/results/latest.json',
  };
}
