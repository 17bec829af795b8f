export * from './in-memory-guide.repository.js';
export * from './in-memory-category-directory.js';
export * from './in-memory-guide-marks.js';
export * from './in-memory-guide-tags.js';
export * from './recording-outbox.js';
export * from './guides-test-bed.js';
export * from './in-memory-guide-images.js';
export * from './in-memory-team-directory.js';
