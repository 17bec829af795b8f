export * from './in-memory-wiki.repository.js';
export * from './in-memory-wiki-queries.js';
export * from './in-memory-wiki-tags.js';
export * from './catalog-test-bed.js';
export * from './wiki-port-scenarios.js';
export * from './in-memory-wiki-images.js';
export * from './in-memory-wiki-translation.repository.js';
