// The reputation context's HTTP adapter: badges.
export * from './reputation.api-module.js';
