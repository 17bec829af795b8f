import type { MigrationObject } from '@mikro-orm/core';
import { IdentityInitial } from './20261122000000-identity.js';

export const identityMigrations: MigrationObject[] = [{ name: '20261122000000-identity', class: IdentityInitial }];
