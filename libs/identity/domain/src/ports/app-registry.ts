export interface AppRegistration {
  readonly appId: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/** The applications allowed to log users in and register accounts (the `X-App-Id` header). */
export abstract class AppRegistry {
  abstract isActive(appId: string): Promise<boolean>;
  abstract find(appId: string): Promise<AppRegistration | null>;
  abstract add(app: AppRegistration): Promise<void>;
  abstract list(): Promise<AppRegistration[]>;
  abstract revoke(appId: string, at: Date): Promise<void>;
}
