import type { INestApplicationContext } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { EnsureAdmin, RegisterApp, RegisterUser, type Principal } from '@rc/identity-domain';
import type { Logger } from 'pino';

/** The demo app id and accounts the README names, so a newcomer can log in with curl. */
export const DEMO_APP_ID = 'demo-app-id';
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@example.com', password: 'admin-demo-password', username: 'Ada Admin' },
  alice: { email: 'alice@example.com', password: 'alice-demo-password', username: 'Alice Fixwell', uniqueUsername: 'alice' },
  bob: { email: 'bob@example.com', password: 'bob-demo-password', username: 'Bob Solder', uniqueUsername: 'bob' },
} as const;

/** Loads the demo content into an empty database (no accounts yet); does nothing otherwise. */
export async function loadDemoData(app: INestApplicationContext, logger: Logger): Promise<boolean> {
  const em = app.get(MikroORM).em;
  const [row] = await em.execute<{ empty: boolean }[]>('SELECT NOT EXISTS (SELECT 1 FROM users) AS empty');
  if (!row?.empty) return false;

  await app.get(RegisterApp).execute({ appId: DEMO_APP_ID, name: 'Demo application', ifAbsent: true });
  const { user: admin } = await app.get(EnsureAdmin).execute(DEMO_ACCOUNTS.admin);
  const actor: Principal = { userId: admin.id, role: 'Admin', tokenDigest: '' };
  for (const account of [DEMO_ACCOUNTS.alice, DEMO_ACCOUNTS.bob]) {
    await app.get(RegisterUser).execute({ registration: account, actor });
  }
  logger.info({ appId: DEMO_APP_ID, accounts: Object.values(DEMO_ACCOUNTS).map((a) => a.email) }, 'demo data loaded');
  return true;
}
