// `npm run test:system`: checks that need programs from Debian's packages besides Node.js (nginx
// for the gateway topology, Chromium for Swagger UI in a browser), kept out of `npm test` so that
// the README's test command needs nothing but Node.js and npm. CI installs both and runs them.
import config from './jest.config.js';

export default {
  ...config,
  displayName: '@rc/api (system)',
  testMatch: ['<rootDir>/test/**/*.system-spec.ts'],
};
