import type { MigrationObject } from '@mikro-orm/core';
import { GuidesInitial } from './20261122200000-guides.js';
import { GuidesSearch } from './20261122300000-guides-search.js';
import { GuideEventsDelivery } from './20261123100100-guide-events-delivery.js';
import { GuidesPaging } from './20261123140000-guides-paging.js';
import { GuidesSearchHead } from './20261123160000-guides-search-head.js';
import { GuideVersionNotify } from './20261124100000-guide-version-notify.js';
import { GuidesSearchPending } from './20261124120000-guides-search-pending.js';
import { GuideBodies } from './20261125100000-guide-bodies.js';
import { GuidesBrowse } from './20261126110000-guides-browse.js';
import { GuidesMedia } from './20261127180000-guides-media.js';
import { GuideHistoryAccess } from './20261126140000-guide-history-access.js';
import { GuideDiscussion } from './20261127120000-guide-discussion.js';
import { GuideStats } from './20261128100000-guide-stats.js';
import { GuideDocuments } from './20261128100200-guide-documents.js';
import { GuideTranslations } from './20261128150000-guide-translations.js';
import { GuideTombstones } from './20261128160000-guide-tombstones.js';
import { GuidesContentStamp } from './20261129100100-guides-content-stamp.js';

export const guidesMigrations: MigrationObject[] = [
  { name: '20261122200000-guides', class: GuidesInitial },
  { name: '20261122300000-guides-search', class: GuidesSearch },
  { name: '20261123100100-guide-events-delivery', class: GuideEventsDelivery },
  { name: '20261123140000-guides-paging', class: GuidesPaging },
  { name: '20261123160000-guides-search-head', class: GuidesSearchHead },
  { name: '20261124100000-guide-version-notify', class: GuideVersionNotify },
  { name: '20261124120000-guides-search-pending', class: GuidesSearchPending },
  { name: '20261125100000-guide-bodies', class: GuideBodies },
  { name: '20261126110000-guides-browse', class: GuidesBrowse },
  { name: '20261126140000-guide-history-access', class: GuideHistoryAccess },
  { name: '20261127120000-guide-discussion', class: GuideDiscussion },
  { name: '20261127180000-guides-media', class: GuidesMedia },
  { name: '20261128100000-guide-stats', class: GuideStats },
  { name: '20261128100200-guide-documents', class: GuideDocuments },
  { name: '20261128150000-guide-translations', class: GuideTranslations },
  { name: '20261128160000-guide-tombstones', class: GuideTombstones },
  { name: '20261129100100-guides-content-stamp', class: GuidesContentStamp },
];
