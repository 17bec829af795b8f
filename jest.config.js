// `npm test` runs every project in one Jest process, so the real PostgreSQL that the
// database-backed projects need is started once (see each project's globalSetup).
export default {
  projects: ['<rootDir>/apps/*/jest.config.js', '<rootDir>/libs/*/*/jest.config.js', '<rootDir>/tools/jest.config.js'],
};
