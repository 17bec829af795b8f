export * from './errors.js';
export * from './clock.js';
export * from './ids.js';
export * from './page.js';
export * from './unit-of-work.js';
export * from './job-queue.js';
export * from './change-summary.js';
export * from './integration-events.js';
