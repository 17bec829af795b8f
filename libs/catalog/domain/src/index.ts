export * from './catalog.errors.js';
export * from './model/wiki-page.js';
export * from './model/wiki-details.js';
export * from './ports/wiki.repository.js';
export * from './use-cases/wiki.use-cases.js';
export * from './ports/wiki-queries.js';
export * from './ports/wiki-images.js';
