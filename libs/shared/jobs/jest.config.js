import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/shared-jobs',
  rootDir: import.meta.dirname,
  globalSetup: '<rootDir>/../infra-mikro-orm/src/testing/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/../infra-mikro-orm/src/testing/jest-global-teardown.mjs',
};
