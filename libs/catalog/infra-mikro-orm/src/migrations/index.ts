import type { MigrationObject } from '@mikro-orm/core';
import { CatalogInitial } from './20261122100000-catalog.js';
import { CatalogHistory } from './20261122250000-catalog-history.js';
import { CatalogSearch } from './20261122300100-catalog-search.js';
import { CatalogRelated } from './20261123130000-catalog-related.js';
import { CatalogLookups } from './20261123140100-catalog-lookups.js';
import { CatalogDetails } from './20261126140000-catalog-details.js';
import { CatalogChangeSummaries } from './20261126140100-catalog-change-summaries.js';
import { WikiStats } from './20261128100100-wiki-stats.js';
import { WikiTranslations } from './20261128150100-wiki-translations.js';
import { WikiTombstones } from './20261128160100-wiki-tombstones.js';
import { CatalogContentStamp } from './20261129100200-catalog-content-stamp.js';

export const catalogMigrations: MigrationObject[] = [
  { name: '20261122100000-catalog', class: CatalogInitial },
  { name: '20261122250000-catalog-history', class: CatalogHistory },
  { name: '20261122300100-catalog-search', class: CatalogSearch },
  { name: '20261123130000-catalog-related', class: CatalogRelated },
  { name: '20261123140100-catalog-lookups', class: CatalogLookups },
  { name: '20261126140000-catalog-details', class: CatalogDetails },
  { name: '20261126140100-catalog-change-summaries', class: CatalogChangeSummaries },
  { name: '20261128100100-wiki-stats', class: WikiStats },
  { name: '20261128150100-wiki-translations', class: WikiTranslations },
  { name: '20261128160100-wiki-tombstones', class: WikiTombstones },
  { name: '20261129100200-catalog-content-stamp', class: CatalogContentStamp },
];
