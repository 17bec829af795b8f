import type { MigrationObject } from '@mikro-orm/core';
import { IdentityInitial } from './20261122000000-identity.js';
import { UsersListing } from './20261122400000-users-listing.js';

export const identityMigrations: MigrationObject[] = [
  { name: '20261122000000-identity', class: IdentityInitial },
  { name: '20261122400000-users-listing', class: UsersListing },
];
