// The media context's HTTP adapter: the caller's library, media lookups, the image files.
export * from './media.api-module.js';
