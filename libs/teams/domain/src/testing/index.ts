export * from './in-memory-teams.js';
export * from './teams-test-bed.js';
