export * from './webhooks.api-module.js';
export * from './webhook-jobs.js';
