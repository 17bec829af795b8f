export * from './wiki-directory.js';
