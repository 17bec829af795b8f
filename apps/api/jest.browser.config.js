// `npm run test:browser`: the checks that need a real browser (headless Chromium), kept out of
// `npm test` so that the README's test command needs nothing but Node.js and npm.
import config from './jest.config.js';

export default {
  ...config,
  displayName: '@rc/api (browser)',
  testMatch: ['<rootDir>/test/**/*.browser-spec.ts'],
};
