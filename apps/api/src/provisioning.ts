import type { INestApplicationContext } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import pg from 'pg';
import { EnsureAdmin, RegisterApp } from '@rc/identity-domain';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, loadDemoData } from '@rc/demo-data';

/** The advisory lock that lets one process at a time migrate or provision a database. */
const START_LOCK = 7_262_026;

/**
 * Runs `work` while this process holds the database's start lock (a session advisory lock on a
 * connection of its own), so instances starting together on one database migrate and provision in
 * turn: the second finds the work done.
 */
async function underStartLock<T>(app: INestApplicationContext, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: app.get(MikroORM).config.get('clientUrl') });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [START_LOCK]);
    return await work();
  } finally {
    // Ending the session releases the lock, whatever happened.
    await client.end();
  }
}

/** Applies pending migrations (one process at a time); returns their names. */
export async function migrate(app: INestApplicationContext): Promise<string[]> {
  return underStartLock(app, async () => (await app.get(MikroORM).migrator.up()).map((m) => m.name));
}

/**
 * What the configuration asks to exist after start: the demo content once in the life of the
 * database (first, so that a configured admin's credentials win over a demo account of the same
 * email), the Admin account of ADMIN_EMAIL and ADMIN_PASSWORD, and the app ids of APP_IDS. The log
 * says what was loaded, or why not.
 */
export async function provision(app: INestApplicationContext, config: AppConfig, logger: Logger): Promise<void> {
  const orm = app.get(MikroORM);
  await underStartLock(app, () => RequestContext.create(orm.em, async () => {
    if (config.demoData) {
      const demo = await loadDemoData(app);
      if (demo.loaded) {
        logger.info({ appId: DEMO_APP_ID, accounts: Object.values(DEMO_ACCOUNTS).map((a) => a.email), categories: demo.categories, guides: demo.guides, images: demo.images }, 'demo data loaded');
      } else {
        logger.info({ reason: demo.reason }, 'demo data not loaded');
      }
    } else {
      logger.info({ reason: 'DEMO_DATA is false (the default with DATABASE_URL)' }, 'demo data not loaded');
    }
    if (config.admin) {
      const { user, created } = await app.get(EnsureAdmin).execute({ email: config.admin.email, password: config.admin.password });
      logger.info({ userid: user.id, email: user.email }, created ? 'admin account created' : 'admin account updated');
    }
    for (const appId of config.appIds) {
      const registered = await app.get(RegisterApp).execute({ appId, name: 'from APP_IDS', ifAbsent: true });
      if (registered.revokedAt) logger.warn({ appId }, 'APP_IDS names an app id that was revoked: it stays revoked');
    }
  }));
}
