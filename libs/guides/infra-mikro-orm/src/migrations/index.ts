import type { MigrationObject } from '@mikro-orm/core';
import { GuidesInitial } from './20261122200000-guides.js';

export const guidesMigrations: MigrationObject[] = [{ name: '20261122200000-guides', class: GuidesInitial }];
