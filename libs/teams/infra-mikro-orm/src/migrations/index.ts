import type { MigrationObject } from '@mikro-orm/core';
import { TeamsInitial } from './20261123120000-teams.js';

export const teamsMigrations: MigrationObject[] = [{ name: '20261123120000-teams', class: TeamsInitial }];
