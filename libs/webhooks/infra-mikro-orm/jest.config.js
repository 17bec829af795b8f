import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/webhooks-infra-mikro-orm',
  rootDir: import.meta.dirname,
  globalSetup: '<rootDir>/../../shared/infra-mikro-orm/src/testing/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/../../shared/infra-mikro-orm/src/testing/jest-global-teardown.mjs',
};
