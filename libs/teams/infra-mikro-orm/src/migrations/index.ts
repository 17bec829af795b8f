import type { MigrationObject } from '@mikro-orm/core';
import { TeamsInitial } from './20261123120000-teams.js';
import { TeamsStandingNotify } from './20261124100300-teams-standing-notify.js';

export const teamsMigrations: MigrationObject[] = [
  { name: '20261123120000-teams', class: TeamsInitial },
  { name: '20261124100300-teams-standing-notify', class: TeamsStandingNotify },
];
