import type { MigrationObject } from '@mikro-orm/core';
import { TeamsInitial } from './20261123120000-teams.js';
import { TeamsStandingNotify } from './20261124100300-teams-standing-notify.js';
import { TeamsRepairServices } from './20261126140100-teams-repair-services.js';
import { TeamsContentStamp } from './20261129100500-teams-content-stamp.js';

export const teamsMigrations: MigrationObject[] = [
  { name: '20261123120000-teams', class: TeamsInitial },
  { name: '20261124100300-teams-standing-notify', class: TeamsStandingNotify },
  { name: '20261126140100-teams-repair-services', class: TeamsRepairServices },
  { name: '20261129100500-teams-content-stamp', class: TeamsContentStamp },
];
