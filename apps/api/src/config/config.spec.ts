import { ConfigError, loadConfig } from './config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      databaseReplicaUrls: [],
      dataDir: '.data',
      publicBaseUrl: 'http://localhost:3000',
      admin: null,
      appIds: [],
      publicRegistration: true,
      impersonation: false,
      demoData: true,
      corsOrigins: ['*'],
      smtpUrl: null,
      mailFrom: 'no-reply@localhost',
      logLevel: 'info',
      tokenTtlDays: 30,
      maxTokensPerUser: 10,
      trustProxy: 0,
      viewFlushSeconds: 5,
      viewRefreshSeconds: 30,
      eventDelivery: true,
      archiveDir: '.data/archives',
      archiveCheckSeconds: 600,
      archiveBuildHeapMb: 256,
      media: {
        store: { kind: 'local', dir: '.data/media' },
        publicBaseUrl: null,
        ffmpeg: null,
        settings: { maxUploadBytes: 80 * 1024 * 1024, maxVideoBytes: 512 * 1024 * 1024, maxDocumentBytes: 80 * 1024 * 1024, maxPixels: 100_000_000, minSide: 50, allowance: { quotaBytes: 5 * 1024 ** 3, uploadsPerWindow: 120, windowSeconds: 3600 } },
      },
      mediaWorkerConcurrency: 2,
      webhooks: { allowPrivateTargets: false, timeoutSeconds: 10, sweepSeconds: 10, workerConcurrency: 4 },
      guideCacheMb: 12,
      pageCacheMb: 16,
      listCacheMb: 8,
      guideCacheMaxAgeSeconds: 10,
      guideCacheCoherence: 'notify',
      webConcurrency: 1,
      metricsToken: null,
      shutdownDelaySeconds: 0,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://u:p@db:5432/repair',
      DATA_DIR: '/var/lib/repair',
      PUBLIC_BASE_URL: 'https://repair.example/',
      ADMIN_EMAIL: 'root@example.com',
      ADMIN_PASSWORD: 'a long admin password',
      APP_IDS: 'app-one, app-two',
      PUBLIC_REGISTRATION: 'false',
      IMPERSONATION: 'true',
      DEMO_DATA: 'yes',
      CORS_ORIGINS: 'https://a.example,https://b.example:8443',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      MAIL_FROM: 'repair@example.com',
      LOG_LEVEL: 'DEBUG',
      TOKEN_TTL_DAYS: '7',
      MAX_TOKENS_PER_USER: '3',
      TRUST_PROXY: '1',
      EVENT_DELIVERY: 'off',
      GUIDE_CACHE_MB: '0',
      GUIDE_CACHE_MAX_AGE_SECONDS: '60',
      GUIDE_CACHE_COHERENCE: 'Lookup',
      WEB_CONCURRENCY: '2',
      ARCHIVE_DIR: '/srv/archives',
      ARCHIVE_CHECK_SECONDS: '3600',
      METRICS_TOKEN: 'scrape-me-please',
      SHUTDOWN_DELAY_SECONDS: '5',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgresql://u:p@db:5432/repair',
      dataDir: '/var/lib/repair',
      publicBaseUrl: 'https://repair.example',
      admin: { email: 'root@example.com', password: 'a long admin password' },
      appIds: ['app-one', 'app-two'],
      publicRegistration: false,
      impersonation: true,
      demoData: true,
      corsOrigins: ['https://a.example', 'https://b.example:8443'],
      smtpUrl: 'smtps://user:pass@mail.example:465',
      logLevel: 'debug',
      tokenTtlDays: 7,
      maxTokensPerUser: 3,
      trustProxy: 1,
      eventDelivery: false,
      archiveDir: '/srv/archives',
      archiveCheckSeconds: 3600,
      guideCacheMb: 0,
      guideCacheMaxAgeSeconds: 60,
      guideCacheCoherence: 'lookup',
      webConcurrency: 2,
      metricsToken: 'scrape-me-please',
      shutdownDelaySeconds: 5,
    });
  });

  it('shares CACHE_MB among the caches, each share settable alone', () => {
    expect(loadConfig({ CACHE_MB: '128' })).toMatchObject({ guideCacheMb: 25, pageCacheMb: 32, listCacheMb: 16 });
    expect(loadConfig({ CACHE_MB: '128', PAGE_CACHE_MB: '4' })).toMatchObject({ guideCacheMb: 25, pageCacheMb: 4, listCacheMb: 16 });
    expect(loadConfig({ CACHE_MB: '128', LIST_CACHE_MB: '2' })).toMatchObject({ guideCacheMb: 25, pageCacheMb: 32, listCacheMb: 2 });
    expect(loadConfig({ CACHE_MB: '0' })).toMatchObject({ guideCacheMb: 0, pageCacheMb: 0, listCacheMb: 0 });
    expect(() => loadConfig({ CACHE_MB: 'lots' })).toThrow(/CACHE_MB/);
  });

  it('reads the read replicas of DATABASE_URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgresql://u:p@db:5432/repair', DATABASE_REPLICA_URLS: ' postgresql://u:p@replica-1/repair , postgres://u:p@replica-2:6432/repair,' });
    expect(config.databaseReplicaUrls).toEqual(['postgresql://u:p@replica-1/repair', 'postgres://u:p@replica-2:6432/repair']);
  });

  it.each([
    [{ DATABASE_REPLICA_URLS: 'postgres://replica/x' }, /^DATABASE_REPLICA_URLS needs DATABASE_URL/],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_REPLICA_URLS: 'postgres://r1/x,mysql://r2/x' }, /^DATABASE_REPLICA_URLS: entry 2 must be a postgres: or postgresql: URL/],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_REPLICA_URLS: 'replica' }, /^DATABASE_REPLICA_URLS: entry 1 is not a URL/],
    [{ DATABASE_URL: 'postgres://db:5432/x', DATABASE_REPLICA_URLS: 'postgres://db/x' }, /^DATABASE_REPLICA_URLS: entry 1 is DATABASE_URL's own server/],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_REPLICA_URLS: 'postgres://r/x,postgres://r/x' }, /^DATABASE_REPLICA_URLS lists a replica twice/],
  ])('rejects the replicas of %j', (env, problem) => {
    expect(problemsOf(env)).toEqual([expect.stringMatching(problem)]);
  });

  it('loads demo data by default only with the embedded database', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', DEMO_DATA: 'true' }).demoData).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT must be an integer/],
    [{ PORT: '70000' }, /^PORT must be an integer from 0 to 65535/],
    [{ DATABASE_URL: 'mysql://db/x' }, /^DATABASE_URL must be a URL/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL must be a URL/],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /^PUBLIC_BASE_URL/],
    [{ ADMIN_EMAIL: 'root@example.com' }, /^ADMIN_EMAIL and ADMIN_PASSWORD must be set together/],
    [{ ADMIN_PASSWORD: 'secret-password' }, /^ADMIN_EMAIL and ADMIN_PASSWORD must be set together/],
    [{ APP_IDS: 'ok-app,bad id' }, /^APP_IDS: 'bad id'/],
    [{ PUBLIC_REGISTRATION: 'maybe' }, /^PUBLIC_REGISTRATION must be true or false/],
    [{ IMPERSONATION: '2' }, /^IMPERSONATION must be true or false/],
    [{ DEMO_DATA: 'sometimes' }, /^DEMO_DATA must be true or false/],
    [{ CORS_ORIGINS: 'example.com' }, /^CORS_ORIGINS: 'example.com'/],
    [{ SMTP_URL: 'http://mail' }, /^SMTP_URL must be a URL/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ TOKEN_TTL_DAYS: '0' }, /^TOKEN_TTL_DAYS/],
    [{ MAX_TOKENS_PER_USER: '-1' }, /^MAX_TOKENS_PER_USER/],
    [{ ARCHIVE_CHECK_SECONDS: 'hourly' }, /^ARCHIVE_CHECK_SECONDS must be an integer from 0/],
    [{ GUIDE_CACHE_COHERENCE: 'gossip' }, /^GUIDE_CACHE_COHERENCE must be 'notify' or 'lookup'/],
    [{ METRICS_TOKEN: 'two words' }, /^METRICS_TOKEN must be printable ASCII/],
    [{ SHUTDOWN_DELAY_SECONDS: '-1' }, /^SHUTDOWN_DELAY_SECONDS must be an integer from 0 to 300/],
    [{ MEDIA_STORE: 'ftp' }, /^MEDIA_STORE must be local or s3/],
    [{ MEDIA_STORE: 's3' }, /^MEDIA_S3_BUCKET is required when MEDIA_STORE is s3/],
    [{ MEDIA_MAX_UPLOAD_BYTES: 'lots' }, /^MEDIA_MAX_UPLOAD_BYTES must be an integer/],
    [{ MEDIA_PUBLIC_BASE_URL: 'cdn.example.com' }, /^MEDIA_PUBLIC_BASE_URL must be a URL starting with http:\/\/ or https:\/\//],
    [{ MEDIA_WORKER_CONCURRENCY: '-1' }, /^MEDIA_WORKER_CONCURRENCY must be an integer from 0/],
    [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' }, /^WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/],
    [{ WEBHOOK_TIMEOUT_SECONDS: '0' }, /^WEBHOOK_TIMEOUT_SECONDS must be an integer from 1 to 60/],
    [{ WEBHOOK_SWEEP_SECONDS: 'often' }, /^WEBHOOK_SWEEP_SECONDS must be an integer from 1 to 3600/],
    [{ VIEW_FLUSH_SECONDS: '0' }, /^VIEW_FLUSH_SECONDS must be an integer from 1 to 3600/],
    [{ WEBHOOK_WORKER_CONCURRENCY: '65' }, /^WEBHOOK_WORKER_CONCURRENCY must be an integer from 0 to 64/],
  ])('refuses %p, naming the variable', (env, message) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('keeps the archives under DATA_DIR unless ARCHIVE_DIR says otherwise; 0 seconds turns the scheduled rebuild off', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/repair' }).archiveDir).toBe('/var/lib/repair/archives');
    expect(loadConfig({ DATA_DIR: '/var/lib/repair', ARCHIVE_DIR: '/mnt/archives' }).archiveDir).toBe('/mnt/archives');
    expect(loadConfig({ ARCHIVE_CHECK_SECONDS: '0' }).archiveCheckSeconds).toBe(0);
  });

  it('stores media in a folder under DATA_DIR unless MEDIA_* say otherwise', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/repair' }).media.store).toEqual({ kind: 'local', dir: '/var/lib/repair/media' });
    const s3 = loadConfig({ MEDIA_STORE: 's3', MEDIA_S3_BUCKET: 'media', MEDIA_S3_ENDPOINT: 'http://minio:9000' }).media.store;
    expect(s3).toMatchObject({ kind: 's3', bucket: 'media', endpoint: 'http://minio:9000', forcePathStyle: true });
    expect(loadConfig({ MEDIA_MAX_UPLOAD_BYTES: '2048' }).media.settings.maxUploadBytes).toBe(2048);
  });

  it('reports every problem at once', () => {
    expect(problemsOf({ PORT: 'x', LOG_LEVEL: 'y', IMPERSONATION: 'z' })).toHaveLength(3);
  });
});
