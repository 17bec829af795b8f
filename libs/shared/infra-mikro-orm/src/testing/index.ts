export * from './test-database.js';
export * from './replicated-postgres.js';
