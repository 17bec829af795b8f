import type { MigrationObject } from '@mikro-orm/core';
import { CommunityInitial } from './20261127130000-community.js';

export const communityMigrations: MigrationObject[] = [{ name: '20261127130000-community', class: CommunityInitial }];
