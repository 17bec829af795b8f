import { createHash } from 'node:crypto';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, onTestServer, type TestDatabase } from '@rc/shared-infra-mikro-orm/testing';

/**
 * Test servers start on a copy of a template database instead of an empty one: what a first start
 * writes (the migrations, pg-boss's schema, the demo content) is written once per test run and
 * configuration, into a template database and a media folder, and each start copies both
 * (PostgreSQL's CREATE DATABASE … TEMPLATE, then the folder). The copy holds exactly what the same
 * start would have written; only the first start's log lines ("migrations applied", "demo data
 * loaded") are the template's.
 */

/**
 * Settings that change nothing a first start writes: starts that differ only in these share a
 * template. (`EVENT_DELIVERY` is not one: a first start with it delivers the demo content's events.)
 */
const RUNTIME_ONLY =
  /^(HOST|PORT|LOG_LEVEL|CORS_ORIGINS|IMPERSONATION|TRUST_PROXY|METRICS_TOKEN|SHUTDOWN_DELAY_SECONDS|TOKEN_TTL_DAYS|MAX_TOKENS_PER_USER|PUBLIC_REGISTRATION|ARCHIVE_CHECK_SECONDS|ARCHIVE_DIR|MEDIA_DIR|MEDIA_WORKER_CONCURRENCY|MEDIA_FFMPEG_PATH|MEDIA_UPLOAD_RATE_LIMIT|MEDIA_UPLOAD_RATE_WINDOW_SECONDS|WEBHOOK_[A-Z_]+|GUIDE_CACHE_[A-Z_]+|PAGE_CACHE_MB|LIST_CACHE_MB|CACHE_MB|VIEW_FLUSH_SECONDS|VIEW_REFRESH_SECONDS)$/;
/** Settings a test of provisioning is about (what a first start creates and logs): such starts begin on an empty database. */
const PROVISIONING = /^(DEMO_DATA|ADMIN_EMAIL|ADMIN_PASSWORD|APP_IDS|DATA_DIR|DATABASE_URL|MEDIA_STORE|MEDIA_S3_[A-Z_]+)$/;

/** Writes what a first start with these settings writes: starts the API on `db` with media in `mediaDir`, then stops it. */
export type FirstStart = (db: TestDatabase, mediaDir: string, env: Record<string, string>) => Promise<void>;

/**
 * The settings that decide a start's template (those that may change what it writes), or `null`
 * when the start must begin on an empty database.
 */
export function templateSettings(env: Record<string, string>): Record<string, string> | null {
  if (Object.keys(env).some((key) => PROVISIONING.test(key))) return null;
  return Object.fromEntries(
    Object.entries(env)
      .filter(([key]) => !RUNTIME_ONLY.test(key))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/** A new database and media folder holding what a first start with `settings` writes. */
export async function fromTemplate(settings: Record<string, string>, mediaDir: string, firstStart: FirstStart): Promise<TestDatabase> {
  const run = process.env['RC_TEST_RUN'];
  if (!run) throw new Error('RC_TEST_RUN is not set: run the tests through Jest (its global setup names the run)');
  const key = createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 12);
  const name = `rc_tpl_${run}_${key}`;
  const media = join(tmpdir(), `rc-tpl-${run}`, key);
  await ensureTemplate(name, media, (db, dir) => firstStart(db, dir, settings));
  const db = await cloneOf(name);
  try {
    await cp(media, mediaDir, { recursive: true });
  } catch (error) {
    await db.drop();
    throw error;
  }
  return db;
}

/** Builds the template once (test files in other workers wait on a lock meanwhile). */
async function ensureTemplate(name: string, media: string, build: (db: TestDatabase, mediaDir: string) => Promise<void>): Promise<void> {
  await onTestServer(async (admin) => {
    // A session lock: released when this connection ends, whatever happens to the build.
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const existing = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (existing.rowCount) return;
    // Built under another name and renamed once complete: an interrupted build leaves no template.
    const db = await createTestDatabase();
    const building = new URL(db.url).pathname.slice(1);
    const partialMedia = `${media}.partial`;
    try {
      await rm(partialMedia, { recursive: true, force: true });
      await mkdir(partialMedia, { recursive: true });
      await build(db, partialMedia);
      await rm(media, { recursive: true, force: true });
      await rename(partialMedia, media);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [building]);
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      await db.drop();
      throw error;
    }
  });
}

/** A copy of the template; PostgreSQL refuses one while a session is still leaving it, so that is tried again. */
async function cloneOf(template: string): Promise<TestDatabase> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createTestDatabase({ template });
    } catch (error) {
      const busy = (error as { code?: string }).code === '55006'; // object_in_use
      if (!busy || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
