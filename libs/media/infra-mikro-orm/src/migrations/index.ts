import type { MigrationObject } from '@mikro-orm/core';
import { MediaInitial } from './20261127100000-media.js';

export const mediaMigrations: MigrationObject[] = [{ name: '20261127100000-media', class: MediaInitial }];
