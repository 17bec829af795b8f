import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/api',
  rootDir: import.meta.dirname,
  globalSetup: '<rootDir>/../../libs/shared/infra-mikro-orm/src/testing/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/../../libs/shared/infra-mikro-orm/src/testing/jest-global-teardown.mjs',
  testTimeout: 30000,
};
