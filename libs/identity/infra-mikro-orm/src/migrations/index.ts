import type { MigrationObject } from '@mikro-orm/core';
import { IdentityInitial } from './20261122000000-identity.js';
import { UsersListing } from './20261122400000-users-listing.js';
import { UsersStandingNotify } from './20261124100100-users-standing-notify.js';
import { IdentityContentStamp } from './20261129100300-identity-content-stamp.js';
import { IssueAuthToken } from './20261130100000-issue-auth-token.js';

export const identityMigrations: MigrationObject[] = [
  { name: '20261122000000-identity', class: IdentityInitial },
  { name: '20261122400000-users-listing', class: UsersListing },
  { name: '20261124100100-users-standing-notify', class: UsersStandingNotify },
  { name: '20261129100300-identity-content-stamp', class: IdentityContentStamp },
  { name: '20261130100000-issue-auth-token', class: IssueAuthToken },
];
