export * from './schemas/community.schemas.js';
export * from './migrations/index.js';
export * from './repositories/mikro-orm-comments.js';
export * from './repositories/mikro-orm-stories.js';
