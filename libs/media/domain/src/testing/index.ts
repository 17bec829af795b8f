export * from './in-memory-media-store.js';
export * from './fake-image-processor.js';
export * from './in-memory-media.js';
export * from './media-test-bed.js';
export * from './ascii.js';
export * from './fake-video-processor.js';
