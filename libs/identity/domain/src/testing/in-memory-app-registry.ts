import { AppIdAlreadyRegisteredError } from '../identity.errors.js';
import { AppRegistry, type AppRegistration } from '../ports/app-registry.js';

/** Registered applications kept in a map (in registration order). */
export class InMemoryAppRegistry extends AppRegistry {
  private readonly rows = new Map<string, AppRegistration>();

  async isActive(appId: string): Promise<boolean> {
    const app = this.rows.get(appId);
    return !!app && !app.revokedAt;
  }

  async find(appId: string): Promise<AppRegistration | null> {
    const app = this.rows.get(appId);
    return app ? { ...app } : null;
  }

  async add(app: AppRegistration): Promise<void> {
    // The table's primary key.
    if (this.rows.has(app.appId)) throw new AppIdAlreadyRegisteredError(app.appId);
    this.rows.set(app.appId, { ...app });
  }

  async list(): Promise<AppRegistration[]> {
    return [...this.rows.values()].map((app) => ({ ...app }));
  }

  /** Marks the app revoked; revoking it again keeps the first revocation time. */
  async revoke(appId: string, at: Date): Promise<void> {
    const app = this.rows.get(appId);
    if (app && !app.revokedAt) this.rows.set(appId, { ...app, revokedAt: at });
  }
}
