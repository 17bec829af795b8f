export * from './embedded-postgres.js';
export * from './orm-config.js';
