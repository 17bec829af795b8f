import type { MigrationObject } from '@mikro-orm/core';
import { CommunityInitial } from './20261127130000-community.js';
import { CommunityContentStamp } from './20261205100000-community-content-stamp.js';

export const communityMigrations: MigrationObject[] = [
  { name: '20261127130000-community', class: CommunityInitial },
  { name: '20261205100000-community-content-stamp', class: CommunityContentStamp },
];
