import type { INestApplicationContext } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { EnsureAdmin, RegisterApp } from '@rc/identity-domain';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config.js';
import { loadDemoData } from './demo/demo-data.js';

/** Applies pending migrations; returns their names. */
export async function migrate(app: INestApplicationContext): Promise<string[]> {
  const applied = await app.get(MikroORM).migrator.up();
  return applied.map((m) => m.name);
}

/**
 * What the configuration asks to exist after start: the Admin account of ADMIN_EMAIL and
 * ADMIN_PASSWORD, the app ids of APP_IDS, and the demo content in an empty database.
 */
export async function provision(app: INestApplicationContext, config: AppConfig, logger: Logger): Promise<void> {
  const orm = app.get(MikroORM);
  await RequestContext.create(orm.em, async () => {
    if (config.admin) {
      const { user, created } = await app.get(EnsureAdmin).execute({ email: config.admin.email, password: config.admin.password });
      logger.info({ userid: user.id, email: user.email }, created ? 'admin account created' : 'admin account updated');
    }
    for (const appId of config.appIds) {
      const registered = await app.get(RegisterApp).execute({ appId, name: 'from APP_IDS', ifAbsent: true });
      if (registered.revokedAt) logger.warn({ appId }, 'APP_IDS names an app id that was revoked: it stays revoked');
    }
    if (config.demoData) await loadDemoData(app, logger);
  });
}
