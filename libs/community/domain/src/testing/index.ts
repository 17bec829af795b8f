export * from './in-memory-community.js';
