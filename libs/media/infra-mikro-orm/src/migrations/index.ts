import type { MigrationObject } from '@mikro-orm/core';
import { MediaInitial } from './20261127100000-media.js';
import { MediaVideoPosters } from './20261127110000-media-video-posters.js';
import { MediaContentStamp } from './20261129100600-media-content-stamp.js';
import { MediaShownSizes } from './20261202100000-media-shown-sizes.js';
import { MediaImagesShownSizes } from './20261204100000-media-images-shown-sizes.js';

export const mediaMigrations: MigrationObject[] = [
  { name: '20261127100000-media', class: MediaInitial },
  { name: '20261127110000-media-video-posters', class: MediaVideoPosters },
  { name: '20261129100600-media-content-stamp', class: MediaContentStamp },
  { name: '20261202100000-media-shown-sizes', class: MediaShownSizes },
  { name: '20261204100000-media-images-shown-sizes', class: MediaImagesShownSizes },
];
