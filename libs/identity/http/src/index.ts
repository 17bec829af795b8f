// The identity context's HTTP adapter: authentication, registration, profiles, the global guards,
// and the UserSummaries it publishes to the other contexts.
export * from './identity.api-module.js';
export * from './guards/admin.guard.js';
export * from './guards/app-id.guard.js';
export * from './guards/auth-token.guard.js';
export * from './user-standings.js';
export * from './user-summaries.js';
export * from './user-summary.presenter.js';
export * from './user-views.js';
export * from './users.controller.js';
