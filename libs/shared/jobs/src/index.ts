export * from './pg-boss-job-queue.js';
export * from './background-jobs.js';
