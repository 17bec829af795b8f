export * from './pg-boss-job-queue.js';
