import type { OutputFormat } from './image-format.js';

export const OUTPUT_MIME: Readonly<Record<OutputFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};
