export * from './schemas/catalog.schemas.js';
export * from './migrations/index.js';
export * from './repositories/mikro-orm-wiki.repository.js';
export * from './repositories/mikro-orm-wiki-queries.js';
export * from './repositories/pg-wiki-images-in-content.js';
export * from './repositories/mikro-orm-page-tags.js';
export * from './repositories/mikro-orm-wiki-translation.repository.js';
export * from './repositories/wiki-view-tally.js';
