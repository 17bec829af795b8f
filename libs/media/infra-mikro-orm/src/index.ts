export * from './stores/local-media-store.js';
export * from './stores/s3-media-store.js';
export * from './processing/sharp-image-processor.js';
export * from './processing/file-type-sniffer.js';
export * from './processing/crypto-guid-source.js';
