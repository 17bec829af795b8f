export * from './schemas/teams.schemas.js';
export * from './migrations/index.js';
export * from './repositories/mikro-orm-team.repository.js';
export * from './repositories/mikro-orm-team-queries.js';
export * from './repositories/mikro-orm-repair-services.js';
