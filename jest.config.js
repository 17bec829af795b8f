// `npm test` runs every project in one Jest process, so the real PostgreSQL that the
// database-backed projects need is started once (see each project's globalSetup).
export default {
  // A global option (project configs cannot set it): database-backed tests start servers and may wait on a busy machine.
  testTimeout: 30000,
  projects: ['<rootDir>/apps/*/jest.config.js', '<rootDir>/libs/*/*/jest.config.js', '<rootDir>/tools/jest.config.js'],
};
