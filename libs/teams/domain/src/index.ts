export * from './teams.errors.js';
export * from './model/team.js';
export * from './ports/team.repository.js';
export * from './ports/team-queries.js';
export * from './ports/user-directory.js';
export * from './use-cases/team.use-cases.js';
