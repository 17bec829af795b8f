import { envReader, type Env } from '@rc/shared-infra-mikro-orm';
import { readMediaConfig, type MediaConfig } from '@rc/media-infra-mikro-orm';
import { readWebhooksConfig, type WebhooksConfig } from '@rc/webhooks-infra-mikro-orm';
import { cacheBudgets, parseTrustProxy, type TrustProxySetting } from '@rc/shared-http';

/** The service's configuration, read from the environment once at start and validated. */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  /** External PostgreSQL; `null` = start the embedded one. */
  readonly databaseUrl: string | null;
  /** Streaming replicas of `databaseUrl` that reads may go to (see docs/read-replicas.md); empty: none. */
  readonly databaseReplicaUrls: readonly string[];
  readonly dataDir: string;
  readonly publicBaseUrl: string;
  readonly admin: { readonly email: string; readonly password: string } | null;
  readonly appIds: readonly string[];
  readonly publicRegistration: boolean;
  readonly impersonation: boolean;
  readonly demoData: boolean;
  /** `['*']` = any origin. */
  readonly corsOrigins: readonly string[];
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  readonly logLevel: LogLevel;
  readonly tokenTtlDays: number;
  readonly maxTokensPerUser: number;
  /** Which reverse proxies' X-Forwarded-For/-Proto are believed: a hop count (0 = none) or their addresses and ranges. */
  readonly trustProxy: TrustProxySetting;
  /** Deliver the guides context's events to reputation in this process (off: run `cli events:deliver` elsewhere). */
  readonly eventDelivery: boolean;
  /** Byte budget of the cache of anonymous guide bodies, in MiB (0: no cache). */
  readonly guideCacheMb: number;
  /** Byte budget of each kind of kept page (wiki pages, search answers), in MiB (0: none kept). */
  readonly pageCacheMb: number;
  /** Byte budget of each kind of kept list (guide lists, comment lists and threads), in MiB (0: none kept). */
  readonly listCacheMb: number;
  /** How long a cached guide body may show its authors' older reputation or names. */
  readonly guideCacheMaxAgeSeconds: number;
  /** How cached guide bodies stay coherent with the database across instances (see GuideVersions). */
  readonly guideCacheCoherence: 'notify' | 'lookup';
  /** Worker processes serving HTTP (1: this process serves alone). */
  readonly webConcurrency: number;
  /** Where the offline oManual archives are written and served from. */
  readonly archiveDir: string;
  /** Seconds between checks for changed content that rebuild the archive in the server (0 = never). */
  readonly archiveCheckSeconds: number;
  /** The heap limit (MB) of the child process a scheduled archive build runs in. */
  readonly archiveBuildHeapMb: number;
  /** `GET /api/2.0/metrics` asks for `Authorization: Bearer <this>` when set. */
  readonly metricsToken: string | null;
  /** Seconds between the readiness probe turning 503 at a shutdown and the server refusing connections. */
  readonly shutdownDelaySeconds: number;
  /** Where media files are stored and the limits of uploads (the `MEDIA_*` variables). */
  readonly media: MediaConfig;
  /** Webhook targets, timeouts and sweeps (the `WEBHOOK_*` variables). */
  readonly webhooks: WebhooksConfig;
  /** Media jobs (image sizes, rotations, purges) this process runs at once per kind (0: none, another process runs them). */
  readonly mediaWorkerConcurrency: number;
  /** Seconds between the writes of the views of guides and pages counted in memory (each instance counts its own). */
  readonly viewFlushSeconds: number;
  /** How long a cached guide body shows its view count before a newer stored count replaces it. */
  readonly viewRefreshSeconds: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads every variable, collecting all problems before failing, so one start shows them all. */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const { read, int, bool, url } = envReader(env, problems);

  const port = int('PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '0.0.0.0';
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const databaseReplicaUrls = replicaUrls(read('DATABASE_REPLICA_URLS'), databaseUrl, problems);
  const publicBaseUrl = (url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');

  const adminEmail = read('ADMIN_EMAIL');
  const adminPassword = env['ADMIN_PASSWORD'];
  if ((adminEmail === undefined) !== (adminPassword === undefined || adminPassword === '')) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }

  const appIds = (read('APP_IDS') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of appIds) if (!/^[A-Za-z0-9_-]{4,64}$/.test(id)) problems.push(`APP_IDS: '${id}' is not 4 to 64 letters, digits, '_' or '-'`);

  const corsOrigins = (read('CORS_ORIGINS') ?? '*').split(',').map((s) => s.trim()).filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) problems.push(`CORS_ORIGINS: '${origin}' is not '*' or an origin such as https://example.com`);
  }

  const logLevel = (read('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const coherence = (read('GUIDE_CACHE_COHERENCE') ?? 'notify').toLowerCase();
  if (coherence !== 'notify' && coherence !== 'lookup') problems.push(`GUIDE_CACHE_COHERENCE must be 'notify' or 'lookup' (got '${coherence}')`);

  const metricsToken = read('METRICS_TOKEN');
  if (metricsToken !== undefined && !/^[\x21-\x7e]{1,512}$/.test(metricsToken)) problems.push('METRICS_TOKEN must be printable ASCII without spaces (at most 512 characters)');

  const config: AppConfig = {
    port,
    host,
    databaseUrl,
    databaseReplicaUrls,
    dataDir: read('DATA_DIR') ?? '.data',
    publicBaseUrl,
    admin: adminEmail && adminPassword ? { email: adminEmail, password: adminPassword } : null,
    appIds,
    publicRegistration: bool('PUBLIC_REGISTRATION', true),
    impersonation: bool('IMPERSONATION', false),
    demoData: bool('DEMO_DATA', databaseUrl === null),
    corsOrigins,
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: read('MAIL_FROM') ?? 'no-reply@localhost',
    logLevel: logLevel as LogLevel,
    tokenTtlDays: int('TOKEN_TTL_DAYS', 30, 1, 3650),
    maxTokensPerUser: int('MAX_TOKENS_PER_USER', 10, 1, 1000),
    trustProxy: parseTrustProxy(read('TRUST_PROXY'), problems),
    eventDelivery: bool('EVENT_DELIVERY', true),
    ...cacheBudgets(int('CACHE_MB', 64, 0, 16384), (name, share) => int(name, share, 0, 4096)), // one budget, shared by the caches
    guideCacheMaxAgeSeconds: int('GUIDE_CACHE_MAX_AGE_SECONDS', 10, 0, 3600),
    guideCacheCoherence: coherence as 'notify' | 'lookup',
    webConcurrency: int('WEB_CONCURRENCY', 1, 1, 64),
    archiveDir: read('ARCHIVE_DIR') ?? `${read('DATA_DIR') ?? '.data'}/archives`,
    archiveCheckSeconds: int('ARCHIVE_CHECK_SECONDS', 600, 0, 7 * 24 * 3600),
    archiveBuildHeapMb: int('ARCHIVE_BUILD_HEAP_MB', 256, 64, 16384),
    metricsToken: metricsToken ?? null,
    shutdownDelaySeconds: int('SHUTDOWN_DELAY_SECONDS', 0, 0, 300),
    media: readMediaConfig(env, read('DATA_DIR') ?? '.data', problems),
    webhooks: readWebhooksConfig(env, problems),
    mediaWorkerConcurrency: int('MEDIA_WORKER_CONCURRENCY', 2, 0, 64),
    viewFlushSeconds: int('VIEW_FLUSH_SECONDS', 5, 1, 3600),
    viewRefreshSeconds: int('VIEW_REFRESH_SECONDS', 30, 0, 3600),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** `DATABASE_REPLICA_URLS`: comma-separated PostgreSQL URLs of streaming replicas of `DATABASE_URL`'s database. */
function replicaUrls(value: string | undefined, databaseUrl: string | null, problems: string[]): string[] {
  const urls = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (urls.length && databaseUrl === null) problems.push('DATABASE_REPLICA_URLS needs DATABASE_URL (the embedded PostgreSQL has no replicas)');
  for (const [i, text] of urls.entries()) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      problems.push(`DATABASE_REPLICA_URLS: entry ${i + 1} is not a URL`);
      continue;
    }
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') problems.push(`DATABASE_REPLICA_URLS: entry ${i + 1} must be a postgres: or postgresql: URL`);
    else if (databaseUrl !== null && sameServer(url, databaseUrl)) problems.push(`DATABASE_REPLICA_URLS: entry ${i + 1} is DATABASE_URL's own server`);
  }
  if (new Set(urls).size !== urls.length) problems.push('DATABASE_REPLICA_URLS lists a replica twice');
  if (urls.length > 16) problems.push('DATABASE_REPLICA_URLS lists more than 16 replicas');
  return urls;
}

function sameServer(replica: URL, databaseUrl: string): boolean {
  const primary = new URL(databaseUrl);
  return replica.hostname === primary.hostname && (replica.port || '5432') === (primary.port || '5432');
}
