export * from './stores/local-media-store.js';
// The S3 store is loaded by createMediaStore only when configured (the AWS SDK costs ~35 MB and ~0.6 s to load).
export type { S3MediaStoreOptions } from './stores/s3-media-store.js';
export * from './processing/sharp-image-processor.js';
export * from './processing/file-type-sniffer.js';
export * from './processing/crypto-guid-source.js';
export * from './persistence/media.schemas.js';
export * from './persistence/mikro-orm-media.repository.js';
export * from './persistence/pg-upload-allowance.js';
export * from './persistence/pg-media-usage.js';
export * from './migrations/index.js';
export * from './media-config.js';
export * from './processing/ffmpeg-video-processor.js';
export * from './processing/known-providers-oembed.js';
