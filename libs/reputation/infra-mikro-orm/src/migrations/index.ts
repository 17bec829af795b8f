import type { MigrationObject } from '@mikro-orm/core';
import { ReputationInitial } from './20261123100000-reputation.js';
import { ReputationStandingNotify } from './20261124100200-reputation-standing-notify.js';
import { ReputationContentStamp } from './20261129100400-reputation-content-stamp.js';

export const reputationMigrations: MigrationObject[] = [
  { name: '20261123100000-reputation', class: ReputationInitial },
  { name: '20261124100200-reputation-standing-notify', class: ReputationStandingNotify },
  { name: '20261129100400-reputation-content-stamp', class: ReputationContentStamp },
];
