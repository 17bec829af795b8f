export * from './schemas/catalog.schemas.js';
export * from './migrations/index.js';
