import cluster from 'node:cluster';
import { Module, type DynamicModule } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MikroORM, type PostgreSqlConnection } from '@mikro-orm/postgresql';
import { HealthCheckService, HealthIndicatorService, MikroOrmHealthIndicator, TerminusModule } from '@nestjs/terminus';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config.js';
import { ArchiveScheduler } from '@rc/archive-http';
import { CategoryTreeBodies, CategoryTreeCache } from '@rc/catalog-http';
import { CommentBodies } from '@rc/community-http';
import { PublicGuideBodies } from '@rc/guides-http';
import { LOGGER } from '@rc/shared-http';
import { ApiMetrics, clusterMetricsClient, Probes, processMetrics, sampled, type BackgroundWorker, type CacheSource, type OutboxStats, type ReplicaStats } from '@rc/shared-ops';
import { formatLsn, ReplicaRoutingDriver } from '@rc/shared-infra-mikro-orm';
import { GuideEventRelay } from '../events/guide-event-relay.js';
import { SiteSearch } from '../search/site-search.js';

/** How long the outbox figures of a scrape are reused (a count over the undelivered rows). */
const OUTBOX_SAMPLE_MS = 5000;

/**
 * The background work this process runs, as readiness sees it: the guide event relay when it
 * delivers here (`EVENT_DELIVERY`, one worker of a cluster), the archive scheduler when it checks
 * here (`ARCHIVE_CHECK_SECONDS` > 0, the same worker). A job queue replacing them adds its entry.
 */
export function backgroundWorkers(config: AppConfig, refs: ModuleRef): BackgroundWorker[] {
  const workers: BackgroundWorker[] = [];
  if (config.eventDelivery) {
    workers.push({ name: 'guide-event-relay', running: () => refs.get(GuideEventRelay, { strict: false }).isRunning });
  }
  if (config.archiveCheckSeconds > 0) {
    workers.push({ name: 'archive-scheduler', running: () => refs.get(ArchiveScheduler, { strict: false }).schedule().state !== 'off' });
  }
  return workers;
}

/** The in-process caches that count their hits and misses. */
function caches(refs: ModuleRef): CacheSource[] {
  const search = refs.get(SiteSearch, { strict: false });
  const bodies = refs.get(PublicGuideBodies, { strict: false });
  return [
    { name: 'guide_body', counters: bodies.cache },
    { name: 'guide_user_parts', counters: bodies.users },
    { name: 'category_tree', counters: refs.get(CategoryTreeCache, { strict: false }) },
    { name: 'category_tree_answers', counters: refs.get(CategoryTreeBodies, { strict: false }) },
    { name: 'search_pages', counters: search.kept },
    { name: 'search_suggestions', counters: search.keptSuggestions },
    { name: 'comment_answers', counters: refs.get(CommentBodies, { strict: false }) },
  ];
}

async function outboxStats(orm: MikroORM): Promise<OutboxStats> {
  const [row] = await orm.em.getConnection().execute<{ pending: number; failing: number; oldest: number }[]>(
    `SELECT count(*)::int AS pending, count(*) FILTER (WHERE attempts > 0)::int AS failing,
            COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest
       FROM guide_events_outbox WHERE delivered_at IS NULL`,
  );
  return { pending: row!.pending, failing: row!.failing, oldestSeconds: Math.max(0, row!.oldest) };
}

/** The read replicas' state for readiness and the metrics (`null`: none configured). */
function replicaStates(orm: MikroORM): (() => ReplicaStats[]) | null {
  const driver = orm.em.getDriver();
  if (!(driver instanceof ReplicaRoutingDriver) || driver.replicaSet.size === 0) return null;
  const set = driver.replicaSet;
  return () =>
    set.state().map((replica) => ({
      name: replica.name,
      up: replica.up,
      lagBytes: replica.lagBytes,
      replayed: replica.replayed === null ? null : formatLsn(replica.replayed),
      checkedSecondsAgo: replica.checkedAt ? Math.round((Date.now() - replica.checkedAt) / 100) / 10 : null,
      ...(replica.problem ? { problem: replica.problem } : {}),
    }));
}

function apiMetrics(orm: MikroORM, refs: ModuleRef): ApiMetrics {
  let cacheSources: CacheSource[] | null = null;
  const connection = orm.em.getConnection() as PostgreSqlConnection;
  let pool: Pool | null = null;
  // Known before the first scrape, so that a scrape reads the figures before its own queries take a connection.
  connection.getNativeClient().then((p) => (pool = p), () => undefined);
  return new ApiMetrics({
    pool: async () => {
      const current = pool ?? (pool = await connection.getNativeClient());
      return { total: current.totalCount, idle: current.idleCount, waiting: current.waitingCount, max: current.options.max ?? 10 };
    },
    // Looked up at the first scrape, once every module is built.
    caches: () => (cacheSources ??= caches(refs)),
    outbox: sampled(() => outboxStats(orm), OUTBOX_SAMPLE_MS),
    ...(replicaStates(orm) ? { replicas: replicaStates(orm)! } : {}),
  });
}

/** What the server answers on the operator endpoints: the probes and the metrics exposition. */
export class Operability {
  /** The exposition scraped: the cluster's aggregate in a worker of a cluster, else this process's. */
  readonly exposition: () => Promise<{ text: string; contentType: string }>;

  constructor(
    readonly probes: Probes,
    readonly metrics: ApiMetrics,
    readonly config: AppConfig,
    readonly logger: Logger,
  ) {
    if (cluster.isWorker) {
      const aggregate = clusterMetricsClient([processMetrics(), metrics.registry]);
      this.exposition = async () => ({ text: await aggregate(), contentType: metrics.contentType });
    } else {
      this.exposition = async () => ({ text: await metrics.text(), contentType: metrics.contentType });
    }
  }
}

/** Health probes (terminus) and Prometheus metrics (prom-client) of the running server. */
@Module({})
export class OpsModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: OpsModule,
      // Failures are reported by the probes' answers and logged on transitions only.
      imports: [TerminusModule.forRoot({ logger: false })],
      providers: [
        { provide: ApiMetrics, inject: [MikroORM, ModuleRef], useFactory: apiMetrics },
        {
          provide: Probes,
          inject: [HealthCheckService, HealthIndicatorService, MikroOrmHealthIndicator, MikroORM, ModuleRef, LOGGER],
          useFactory: (health: HealthCheckService, indicators: HealthIndicatorService, database: MikroOrmHealthIndicator, orm: MikroORM, refs: ModuleRef, logger: Logger) => {
            const probes = new Probes(health, indicators, database, async () => (await orm.migrator.getPending()).map((m) => m.name), backgroundWorkers(config, refs), logger);
            probes.replicas = replicaStates(orm);
            return probes;
          },
        },
        {
          provide: Operability,
          inject: [Probes, ApiMetrics, LOGGER],
          useFactory: (probes: Probes, metrics: ApiMetrics, logger: Logger) => new Operability(probes, metrics, config, logger),
        },
      ],
      exports: [Operability],
    };
  }
}
