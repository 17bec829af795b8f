export * from './omanual-schema.js';
