import type { MigrationObject } from '@mikro-orm/core';
import { ReputationInitial } from './20261123100000-reputation.js';

export const reputationMigrations: MigrationObject[] = [{ name: '20261123100000-reputation', class: ReputationInitial }];
