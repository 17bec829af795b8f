import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/identity-contracts',
  rootDir: import.meta.dirname,
};
