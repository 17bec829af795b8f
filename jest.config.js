// `npm test` runs every project in one Jest process, so the real PostgreSQL that the
// database-backed projects need is started once (see each project's globalSetup).
import { availableParallelism } from 'node:os';

export default {
  // A global option (project configs cannot set it): database-backed tests start servers and may wait on a busy machine.
  testTimeout: 30000,
  // Test files run in worker processes: two on a two-core machine (the servers under test wait on
  // PostgreSQL much of the time), half the cores on bigger ones. A worker keeps every module it
  // loaded (the ESM module graphs of its test files): it is replaced between files once it holds
  // more than this, where a single process running every file ran out of heap.
  maxWorkers: Math.max(2, Math.floor(availableParallelism() / 2)),
  workerIdleMemoryLimit: '1GB',
  projects: ['<rootDir>/apps/*/jest.config.js', '<rootDir>/libs/*/*/jest.config.js', '<rootDir>/tools/jest.config.js'],
};
