import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Hit and miss counts a cache keeps as plain numbers (no metrics library in the cache itself). */
export interface CacheCounters {
  readonly hits: number;
  readonly misses: number;
}

/** A cache the metrics report, by name (`guide_body`, `category_tree`, …). */
export interface CacheSource {
  readonly name: string;
  readonly counters: CacheCounters;
}

/** The database pool's figures (the pg `Pool`'s own counts). */
export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

/** The guide events not delivered yet. */
export interface OutboxStats {
  readonly pending: number;
  readonly failing: number;
  /** Age of the oldest undelivered event, in seconds (0 when none). */
  readonly oldestSeconds: number;
}

/** What the metrics read on each scrape. */
export interface MetricSources {
  readonly pool: () => Promise<PoolStats | null>;
  readonly caches: () => readonly CacheSource[];
  readonly outbox: () => Promise<OutboxStats | null>;
  /** The read replicas as last checked (none: no replicas configured). */
  readonly replicas?: () => readonly ReplicaStats[];
}

/** One read replica as the routing last saw it. */
export interface ReplicaStats {
  readonly name: string;
  readonly up: boolean;
  /** Bytes of WAL its replay was behind the primary at the last check (`null`: not known). */
  readonly lagBytes: number | null;
}

/** Latency buckets, in seconds: from a cached guide (well under a millisecond) to a slow search. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | null = null;

/**
 * The process's default metrics (CPU, memory, event loop lag, GC, handles), collected once per
 * process whatever the number of applications in it (tests start several).
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The application's metrics: request durations observed as requests end, and gauges and counters
 * read from their sources when scraped (nothing runs between scrapes).
 */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly durations: Histogram<'method' | 'route' | 'status'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status, from the first byte read to the last byte written (status "aborted": the connection closed first)',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });

    // Each gauge awaits the same read of its source (prom-client collects the metrics of a scrape concurrently).
    const gauge = <T>(name: string, help: string, aggregator: 'sum' | 'max', sample: () => Promise<T | null>, pick: (stats: T) => number) =>
      new Gauge({
        name,
        help,
        registers,
        aggregator,
        async collect() {
          const stats = await sample().catch(() => null);
          if (stats) this.set(pick(stats));
        },
      });
    const pool = sampled(sources.pool, 1000);
    gauge('db_pool_connections', 'PostgreSQL connections open in the pool', 'sum', pool, (p) => p.total);
    gauge('db_pool_idle_connections', 'PostgreSQL connections of the pool not in use', 'sum', pool, (p) => p.idle);
    gauge('db_pool_waiting_clients', 'Queries waiting for a connection of the pool', 'sum', pool, (p) => p.waiting);
    gauge('db_pool_max_connections', 'Size limit of the pool', 'sum', pool, (p) => p.max);

    new Counter({
      name: 'cache_requests_total',
      help: 'Lookups of the in-process caches by result (hit ratio: hits / all)',
      labelNames: ['cache', 'result'],
      registers,
      collect() {
        // The caches count; the counter shows their totals.
        this.reset();
        for (const { name, counters } of sources.caches()) {
          this.inc({ cache: name, result: 'hit' }, counters.hits);
          this.inc({ cache: name, result: 'miss' }, counters.misses);
        }
      },
    });

    const replicas = sources.replicas;
    if (replicas) {
      // Each worker checks on its own: the cluster's figure is the worst one seen.
      new Gauge({
        name: 'db_replica_up',
        help: 'Whether a read replica answered its last check replaying (1) or is skipped by reads (0)',
        labelNames: ['replica'],
        registers,
        aggregator: 'min',
        collect() {
          for (const replica of replicas()) this.set({ replica: replica.name }, replica.up ? 1 : 0);
        },
      });
      new Gauge({
        name: 'db_replica_lag_bytes',
        help: "Bytes of WAL a read replica's replay was behind the primary at its last check",
        labelNames: ['replica'],
        registers,
        aggregator: 'max',
        collect() {
          for (const replica of replicas()) if (replica.lagBytes !== null) this.set({ replica: replica.name }, replica.lagBytes);
        },
      });
    }

    // Every worker reads the same table: the cluster's figure is the largest, not the sum.
    const outbox = sources.outbox;
    gauge('guide_events_pending', 'Guide events written and not delivered to reputation yet', 'max', outbox, (o) => o.pending);
    gauge('guide_events_failing', 'Undelivered guide events whose handling failed at least once', 'max', outbox, (o) => o.failing);
    gauge('guide_events_oldest_pending_age_seconds', 'Age in seconds of the oldest undelivered guide event (0: none)', 'max', outbox, (o) => o.oldestSeconds);
  }

  /** Records one request (cheap: one histogram observe). */
  observe(method: string, route: string, status: string, seconds: number): void {
    this.durations.observe({ method, route, status }, seconds);
  }

  /** The text exposition of this process: its default metrics and the application's. */
  async text(): Promise<string> {
    const [process, app] = await Promise.all([processMetrics().metrics(), this.registry.metrics()]);
    return `${process}${app}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * A sample that is read at most every `ttlMs` (concurrent scrapes share one read); a failed read is
 * not kept.
 */
export function sampled<T>(read: () => Promise<T>, ttlMs: number, now: () => number = Date.now): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    const at = now();
    if (last && at - last.at < ttlMs) return last.value;
    const value = read();
    const entry = { at, value };
    last = entry;
    value.catch(() => {
      if (last === entry) last = null;
    });
    return value;
  };
}
