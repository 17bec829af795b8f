// The catalog context's HTTP adapter: categories and wiki pages.
export * from './catalog.api-module.js';
export * from './wiki-reader.js';
export * from './wiki.presenter.js';
export * from './omanual-category.mapper.js';
export * from './category-tree-cache.js';
export * from './wiki-views.js';
