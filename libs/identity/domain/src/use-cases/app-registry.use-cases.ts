import type { Clock } from '@rc/shared-kernel';
import { AppIdAlreadyRegisteredError, AppIdNotFoundError, InvalidAccountDataError, InvalidAppIdError } from '../identity.errors.js';
import type { AppRegistration, AppRegistry } from '../ports/app-registry.js';
import type { Secrets } from '../ports/secrets.js';

const APP_ID = /^[A-Za-z0-9_-]{4,64}$/;

/** Accepts only registered, unrevoked app ids (the `X-App-Id` header). */
export class VerifyAppId {
  constructor(private readonly apps: AppRegistry) {}

  async execute(appId: string | undefined): Promise<void> {
    if (!appId || !APP_ID.test(appId) || !(await this.apps.isActive(appId))) throw new InvalidAppIdError();
  }
}

/**
 * Registers an application; with no id given, a random 16-character one is made. With `ifAbsent`
 * an id that exists is returned as it is: a live one stays live, and one an operator revoked stays
 * revoked (start-up configuration never undoes a revocation).
 */
export class RegisterApp {
  constructor(
    private readonly apps: AppRegistry,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {}

  async execute(input: { appId?: string; name: string; ifAbsent?: boolean }): Promise<AppRegistration> {
    const appId = input.appId ?? this.secrets.generate().replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
    if (!APP_ID.test(appId)) {
      throw new InvalidAccountDataError([{ field: 'appId', message: 'An app id is 4 to 64 letters, digits, underscores or hyphens' }]);
    }
    const existing = await this.apps.find(appId);
    if (existing) {
      if (input.ifAbsent) return existing;
      throw new AppIdAlreadyRegisteredError(appId);
    }
    const app = { appId, name: input.name.trim() || appId, createdAt: this.clock.now(), revokedAt: null };
    await this.apps.add(app);
    return app;
  }
}

export class ListApps {
  constructor(private readonly apps: AppRegistry) {}

  execute(): Promise<AppRegistration[]> {
    return this.apps.list();
  }
}

export class RevokeApp {
  constructor(
    private readonly apps: AppRegistry,
    private readonly clock: Clock,
  ) {}

  async execute(appId: string): Promise<void> {
    if (!(await this.apps.find(appId))) throw new AppIdNotFoundError(appId);
    await this.apps.revoke(appId, this.clock.now());
  }
}
