export * from './fixed-clock.js';
export * from './immediate-unit-of-work.js';
export * from './recording-job-queue.js';
export * from './recording-integration-events.js';
export * from './in-memory-view-tally.js';
