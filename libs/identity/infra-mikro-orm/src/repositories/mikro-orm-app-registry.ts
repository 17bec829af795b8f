import type { EntityManager } from '@mikro-orm/postgresql';
import { AppRegistry, type AppRegistration } from '@rc/identity-domain';
import { PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';
import { AppIdSchema, type AppIdRow } from '../schemas/identity.schemas.js';

/** Every request naming an app id runs it: prepared, so each connection plans it once. */
const ACTIVE = new PreparedStatement('SELECT 1 AS active FROM app_ids WHERE app_id = ? AND revoked_at IS NULL');

export class MikroOrmAppRegistry extends AppRegistry {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async isActive(appId: string): Promise<boolean> {
    const [row] = await queryPrepared(this.em, ACTIVE, [appId]);
    return row !== undefined;
  }

  async find(appId: string): Promise<AppRegistration | null> {
    const row = await this.em.findOne(AppIdSchema, { appId }, { disableIdentityMap: true });
    return row ? toRegistration(row) : null;
  }

  async add(app: AppRegistration): Promise<void> {
    await this.em.insert(AppIdSchema, { ...app });
  }

  async list(): Promise<AppRegistration[]> {
    const rows = await this.em.find(AppIdSchema, {}, { orderBy: { createdAt: 'asc', appId: 'asc' }, disableIdentityMap: true });
    return rows.map(toRegistration);
  }

  async revoke(appId: string, at: Date): Promise<void> {
    await this.em.nativeUpdate(AppIdSchema, { appId, revokedAt: null }, { revokedAt: at });
  }
}

function toRegistration(row: AppIdRow): AppRegistration {
  return { appId: row.appId, name: row.name, createdAt: row.createdAt, revokedAt: row.revokedAt };
}
