export * from './embedded-postgres.js';
export * from './orm-config.js';
export * from './mikro-orm-unit-of-work.js';
export * from './full-text.js';
export * from './pg-listener.js';
export * from './env-reader.js';
export * from './notified-loop.js';
export * from './read-replicas.js';
