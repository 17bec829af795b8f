// The offline archive, a cross-context feature: every public guide and category as oManual
// documents in one ZIP file, built by the guides' and the catalog's presenters and mappers.
export * from './archive.module.js';
export * from './archive-settings.js';
export * from './archive-builder.js';
export * from './archive-child.js';
export * from './archive-progress.js';
export * from './archive-scheduler.js';
export * from './archive-store.js';
export * from './archives.controller.js';
