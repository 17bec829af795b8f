export * from './in-memory-reputation.js';
export * from './badge-fixtures.js';
