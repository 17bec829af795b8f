export * from './webhooks.errors.js';
export * from './subscription.js';
export * from './delivery.js';
export * from './ports.js';
export * from './use-cases.js';
