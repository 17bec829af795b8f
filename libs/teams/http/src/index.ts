// The teams context's HTTP adapter: teams and their members.
export * from './teams.api-module.js';
export * from './team-reader.js';
export * from './team.presenter.js';
