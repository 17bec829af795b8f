export * from './schemas/guides.schemas.js';
export * from './migrations/index.js';
export * from './repositories/mikro-orm-guide.repository.js';
export * from './repositories/mikro-orm-guide-queries.js';
export * from './repositories/mikro-orm-guide-activity.js';
export * from './repositories/mikro-orm-guide-event-feed.js';
export * from './repositories/guide-version.js';
export * from './repositories/pg-guide-images-in-content.js';
