export * from './community.errors.js';
export * from './model/text.js';
export * from './model/comment.js';
export * from './model/story.js';
export * from './ports/comment.ports.js';
export * from './ports/story.ports.js';
export * from './use-cases/comment.use-cases.js';
export * from './use-cases/story.use-cases.js';
