import type { MigrationObject } from '@mikro-orm/core';
import { CatalogInitial } from './20261122100000-catalog.js';

export const catalogMigrations: MigrationObject[] = [{ name: '20261122100000-catalog', class: CatalogInitial }];
