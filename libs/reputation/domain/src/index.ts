export * from './model/badge.js';
export * from './model/facts.js';
export * from './model/point-table.js';
export * from './ports/reputation.ports.js';
export * from './reputation.errors.js';
export * from './use-cases/reputation.use-cases.js';
