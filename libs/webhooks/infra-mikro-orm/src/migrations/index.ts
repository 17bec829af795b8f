import type { MigrationObject } from '@mikro-orm/core';
import { WebhooksInitial } from './20261127120000-webhooks.js';

export const webhooksMigrations: MigrationObject[] = [{ name: '20261127120000-webhooks', class: WebhooksInitial }];
