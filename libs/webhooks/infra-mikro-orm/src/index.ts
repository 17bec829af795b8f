export * from './schemas/webhooks.schemas.js';
export * from './migrations/index.js';
export * from './repositories.js';
export * from './signing.js';
export * from './targets.js';
export * from './sender.js';
export * from './dispatcher.js';
export * from './webhooks-config.js';
