// The media context's HTTP adapter: the caller's library, media lookups, the image files.
export * from './media.api-module.js';
export * from './media.presenter.js';
export * from './image-files.controller.js';
export * from './media-images.js';
export * from './media-files.controller.js';
export * from './stored-file.js';
export * from './media-documents.js';
