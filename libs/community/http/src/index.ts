// The community context's HTTP adapter: comments and stories.
export * from './comment-bodies.js';
export * from './community.api-module.js';
export * from './community.presenter.js';
export * from './story-images.js';
export * from './comments.controller.js';
export * from './stories.controller.js';
export * from './demo/community-demo.js';
