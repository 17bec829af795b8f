export * from './schemas/reputation.schemas.js';
export * from './migrations/index.js';
export * from './repositories/mikro-orm-reputation.js';
