// Shared Jest settings for every project: native ESM, ts-jest in transpile mode,
// and workspace packages (@rc/<context>-<layer>) resolved to their TypeScript sources.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = dirname(fileURLToPath(import.meta.url));
const contexts = 'shared|identity|guides|catalog|teams|reputation|media|community|webhooks|archive|demo';

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: join(root, 'tsconfig.jest.json') }],
  },
  moduleNameMapper: {
    [`^@rc/(${contexts})-([a-z-]+)$`]: `${root}/libs/$1/$2/src/index.ts`,
    [`^@rc/(${contexts})-([a-z-]+)/testing$`]: `${root}/libs/$1/$2/src/testing/index.ts`,
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.int-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  clearMocks: true,
};
